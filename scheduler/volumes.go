// volumes.go: the scheduler's caches of PersistentVolumeClaims, PersistentVolumes and StorageClasses,
// the storage objects a pod's volumes use. kube-scheduler watches them for the VolumeBinding plugin:
// a pod whose claim is not bound waits, and a change to any of the three (a claim bound, a volume or
// a class created) may let it in. Interface: volumeLister, which implements framework.VolumeLister
// over the three informers.
package scheduler

import (
	"kubesim/api"
	"kubesim/client"
	"kubesim/scheduler/framework"
)

// volumeLister reads the scheduler's storage informers, or a fixed cluster's objects; with neither
// (the algorithm benchmarks) it finds nothing.
type volumeLister struct{ s *Scheduler }

var _ framework.VolumeLister = volumeLister{}

// newVolumeInformers builds the claim, volume and class informers, each of whose changes moves the
// pods a volume plugin rejected (VolumeBinding, VolumeZone, VolumeRestrictions and NodeVolumeLimits
// for a claim added) back to the active queue.
func (s *Scheduler) newVolumeInformers(c *client.Client, o Options) {
	opts := func(what string) client.InformerOptions {
		return client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: s.name + " " + what}
	}
	s.pvcInformer = client.NewInformer[api.PersistentVolumeClaim](c, opts("persistentvolumeclaims"))
	s.pvInformer = client.NewInformer[api.PersistentVolume](c, opts("persistentvolumes"))
	s.scInformer = client.NewInformer[api.StorageClass](c, opts("storageclasses"))
	s.pvcInformer.AddHandler(client.Handler[*api.PersistentVolumeClaim]{
		OnAdd: func(*api.PersistentVolumeClaim) { s.volumeEvent(framework.PersistentVolumeClaim, framework.Add) },
		OnUpdate: func(_, _ *api.PersistentVolumeClaim) {
			s.volumeEvent(framework.PersistentVolumeClaim, framework.Update)
		},
	})
	s.pvInformer.AddHandler(client.Handler[*api.PersistentVolume]{
		OnAdd:    func(*api.PersistentVolume) { s.volumeEvent(framework.PersistentVolume, framework.Add) },
		OnUpdate: func(_, _ *api.PersistentVolume) { s.volumeEvent(framework.PersistentVolume, framework.Update) },
	})
	s.scInformer.AddHandler(client.Handler[*api.StorageClass]{
		OnAdd: func(*api.StorageClass) { s.volumeEvent(framework.StorageClass, framework.Add) },
	})
}

func (s *Scheduler) volumeEvent(r framework.EventResource, a framework.ActionType) {
	s.queue.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: r, ActionType: a})
}

// Claim returns a PersistentVolumeClaim by namespace and name.
func (v volumeLister) Claim(namespace, name string) (*api.PersistentVolumeClaim, bool) {
	if f := v.s.fixed; f != nil {
		return find(f.Claims, func(c *api.PersistentVolumeClaim) bool { return c.Namespace == namespace && c.Name == name })
	}
	if v.s.pvcInformer == nil {
		return nil, false
	}
	return v.s.pvcInformer.Get(namespace + "/" + name)
}

// Volume returns a PersistentVolume by name.
func (v volumeLister) Volume(name string) (*api.PersistentVolume, bool) {
	if f := v.s.fixed; f != nil {
		return find(f.Volumes, func(pv *api.PersistentVolume) bool { return pv.Name == name })
	}
	if v.s.pvInformer == nil {
		return nil, false
	}
	return v.s.pvInformer.Get(name)
}

// Volumes lists every PersistentVolume.
func (v volumeLister) Volumes() []*api.PersistentVolume {
	if f := v.s.fixed; f != nil {
		return f.Volumes
	}
	if v.s.pvInformer == nil {
		return nil
	}
	return v.s.pvInformer.List()
}

// Class returns a StorageClass by name.
func (v volumeLister) Class(name string) (*api.StorageClass, bool) {
	if f := v.s.fixed; f != nil {
		return find(f.Classes, func(sc *api.StorageClass) bool { return sc.Name == name })
	}
	if v.s.scInformer == nil {
		return nil, false
	}
	return v.s.scInformer.Get(name)
}

// find returns the first object ok accepts.
func find[T any](objs []*T, ok func(*T) bool) (*T, bool) {
	for _, o := range objs {
		if ok(o) {
			return o, true
		}
	}
	return nil, false
}

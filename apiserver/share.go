// share.go: pods that the cache keeps share the parts their ReplicaSet (or other controller) gave
// them all alike. The pods of one template have equal containers, tolerations, affinity, labels and
// owner references, and pods that became ready in the same second equal conditions; each pod the
// cache stored was a deep copy with its own of each, about two thirds of its memory. Before the cache
// keeps a pod, the sharer compares those parts with the ones it last kept for the same controller and,
// where they are equal (api.Equal, as reflect.DeepEqual: the same values and the same encoding, not
// merely semantically equal), puts the kept ones in their place. A pod this apiserver writes is
// the writer's, which keeps it: the cache's copy of it (keep) is made without the parts that are
// equal to kept ones, so that they are never copied only to be dropped.
//
// This is safe because nothing modifies an object the cache holds: updates copy what they change
// (cachedBase), informers share these objects read-only (the cache mutation detector checks it), and
// a deep copy of a pod that shares parts is an ordinary pod with parts of its own. kube-apiserver
// keeps each pod whole; what a client sees is the same.
package apiserver

import (
	"slices"
	"sync"

	"kubesim/api"
)

// maxSharedOwners bounds the sharer's table; past it the table starts afresh (sharing then resumes
// with the next pod of each controller).
const maxSharedOwners = 8192

// podParts are the parts of a pod shared between the pods of one controller.
type podParts struct {
	labels         map[string]string
	ownerRefs      []api.OwnerReference
	nodeSelector   map[string]string
	containers     []api.Container
	initContainers []api.Container
	tolerations    []api.Toleration
	affinity       *api.Affinity
	conditions     []api.PodCondition
	volumes        []api.Volume
}

type sharer struct {
	mu   sync.Mutex
	pods map[string]*podParts // by controller UID ("" for pods without one)
}

func newSharer() *sharer { return &sharer{pods: map[string]*podParts{}} }

// share replaces obj's shareable parts by equal ones already kept, and returns obj. obj must be
// the caller's own (a fresh decoding) and is not modified after.
func (s *sharer) share(obj api.Object) api.Object {
	if p, ok := obj.(*api.Pod); ok {
		s.shareParts(p, false)
	}
	return obj
}

// keep returns the cache's own copy of obj, an object its caller keeps (and may change): a deep
// copy, but for the parts equal to kept ones, which are never copied at all. The pod is copied
// without its shareable parts; the copy then takes each part from the kept ones where equal, and a
// copy of the caller's where not.
func (s *sharer) keep(obj api.Object) api.Object {
	p, ok := obj.(*api.Pod)
	if !ok {
		return api.DeepCopy(obj)
	}
	parts := podPartsOf(p)
	setPodParts(p, podParts{})
	c := api.DeepCopy(p)
	setPodParts(p, parts)
	setPodParts(c, parts) // the caller's, until shareParts replaces each by a kept one or a copy
	s.shareParts(c, true)
	return c
}

// podPartsOf returns p's shareable parts.
func podPartsOf(p *api.Pod) podParts {
	return podParts{labels: p.Labels, ownerRefs: p.OwnerReferences, nodeSelector: p.Spec.NodeSelector,
		containers: p.Spec.Containers, initContainers: p.Spec.InitContainers, tolerations: p.Spec.Tolerations,
		affinity: p.Spec.Affinity, conditions: p.Status.Conditions, volumes: p.Spec.Volumes}
}

// setPodParts sets p's shareable parts to those in to.
func setPodParts(p *api.Pod, to podParts) {
	p.Labels, p.OwnerReferences, p.Spec.NodeSelector = to.labels, to.ownerRefs, to.nodeSelector
	p.Spec.Containers, p.Spec.InitContainers, p.Spec.Volumes = to.containers, to.initContainers, to.volumes
	p.Spec.Tolerations, p.Spec.Affinity, p.Status.Conditions = to.tolerations, to.affinity, to.conditions
}

// shareParts replaces p's shareable parts by equal ones already kept. With foreign, the parts are
// someone else's: one that is not replaced is copied, so that p shares no part with its owner.
func (s *sharer) shareParts(p *api.Pod, foreign bool) {
	owner := ""
	if ref := p.ControllerRef(); ref != nil {
		owner = ref.UID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.pods[owner]
	if kept == nil {
		if len(s.pods) >= maxSharedOwners {
			clear(s.pods)
		}
		kept = &podParts{}
		s.pods[owner] = kept
	}
	// A shared slice must not have room past its end: an append to one pod's would write into
	// another's (a decoded slice may have room; a deep copy's has none).
	p.OwnerReferences, p.Spec.Containers, p.Spec.InitContainers = slices.Clip(p.OwnerReferences), slices.Clip(p.Spec.Containers), slices.Clip(p.Spec.InitContainers)
	p.Spec.Tolerations, p.Status.Conditions = slices.Clip(p.Spec.Tolerations), slices.Clip(p.Status.Conditions)
	shareField(&kept.labels, &p.Labels, foreign)
	shareField(&kept.ownerRefs, &p.OwnerReferences, foreign)
	shareField(&kept.nodeSelector, &p.Spec.NodeSelector, foreign)
	shareContainers(&kept.containers, &p.Spec.Containers, foreign)
	shareContainers(&kept.initContainers, &p.Spec.InitContainers, foreign)
	shareVolumes(&kept.volumes, &p.Spec.Volumes, foreign)
	shareField(&kept.tolerations, &p.Spec.Tolerations, foreign)
	shareField(&kept.affinity, &p.Spec.Affinity, foreign)
	shareField(&kept.conditions, &p.Status.Conditions, foreign)
}

// ownArray gives *v an array of its own, written next: the containers of an update's pod may be the
// array of the pod it replaces, which other pods share. Its elements stay as they were.
func ownArray[T any](v *[]T) { *v = slices.Clone(*v) }

// shareContainers shares a pod's containers whole when they equal the kept ones. Each pod's
// containers differ in one place, the mount of its own kube-api-access-xxxxx volume, so otherwise
// each container borrows the kept one's parts that are equal (resources, ports, env, command,
// probes), and becomes the one to borrow from next.
func shareContainers(kept, v *[]api.Container, foreign bool) {
	if api.Equal(kept, v) {
		*v = *kept
		return
	}
	if len(*kept) != len(*v) {
		if foreign {
			api.Detach(v)
		}
		*kept = *v
		return
	}
	if foreign {
		api.Detach(v) // all of it: what the containers borrow below is seldom more than nothing
	} else {
		ownArray(v)
	}
	for i := range *v {
		k, c := &(*kept)[i], &(*v)[i]
		c.Command, c.Args, c.Ports = slices.Clip(c.Command), slices.Clip(c.Args), slices.Clip(c.Ports)
		c.EnvFrom, c.Env, c.VolumeMounts = slices.Clip(c.EnvFrom), slices.Clip(c.Env), slices.Clip(c.VolumeMounts)
		borrow(&k.Command, &c.Command)
		borrow(&k.Args, &c.Args)
		borrow(&k.Ports, &c.Ports)
		borrow(&k.EnvFrom, &c.EnvFrom)
		borrow(&k.Env, &c.Env)
		borrow(&k.Resources, &c.Resources)
		borrow(&k.LivenessProbe, &c.LivenessProbe)
		borrow(&k.ReadinessProbe, &c.ReadinessProbe)
		borrow(&k.StartupProbe, &c.StartupProbe)
	}
	*kept = *v
}

// shareVolumes lets each of a pod's volumes borrow the kept one's source where it is equal (the
// kube-api-access volume's source is the same in every pod; only its name differs).
func shareVolumes(kept, v *[]api.Volume, foreign bool) {
	if len(*kept) == len(*v) {
		ownArray(v)
		for i := range *v {
			// A volume is its name and its source: a foreign source not borrowed is copied.
			if src := &(*v)[i].VolumeSource; !borrow(&(*kept)[i].VolumeSource, src) && foreign {
				api.Detach(src)
			}
		}
	} else if foreign {
		api.Detach(v)
	}
	*kept = *v
}

// borrow puts *kept in *v if they are equal, and says so; *kept is left as it is.
func borrow[T any](kept, v *T) bool {
	if api.Equal(kept, v) {
		*v = *kept
		return true
	}
	return false
}

// shareField puts *kept in *v if they are equal, else keeps *v (a copy of it when it is foreign) as
// the one to share from now on.
func shareField[T any](kept, v *T, foreign bool) {
	if api.Equal(kept, v) {
		*v = *kept
		return
	}
	if foreign {
		api.Detach(v)
	}
	*kept = *v
}

// share.go: pods that the cache keeps share the parts their ReplicaSet (or other controller) gave
// them all alike. The pods of one template have equal containers, tolerations, affinity, labels and
// owner references, and pods that became ready in the same second equal conditions; each pod the
// cache stored was a deep copy with its own of each, about two thirds of its memory. Before the cache
// keeps a pod, the sharer compares those parts with the ones it last kept for the same controller and,
// where they are equal (api.Equal, as reflect.DeepEqual: the same values and the same encoding, not
// merely semantically equal), puts the kept ones in their place.
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
// the caller's own (a fresh copy or decoding) and is not modified after.
func (s *sharer) share(obj api.Object) api.Object {
	p, ok := obj.(*api.Pod)
	if !ok {
		return obj
	}
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
	shareField(&kept.labels, &p.Labels)
	shareField(&kept.ownerRefs, &p.OwnerReferences)
	shareField(&kept.nodeSelector, &p.Spec.NodeSelector)
	shareContainers(&kept.containers, &p.Spec.Containers)
	shareContainers(&kept.initContainers, &p.Spec.InitContainers)
	shareVolumes(&kept.volumes, &p.Spec.Volumes)
	shareField(&kept.tolerations, &p.Spec.Tolerations)
	shareField(&kept.affinity, &p.Spec.Affinity)
	shareField(&kept.conditions, &p.Status.Conditions)
	return p
}

// shareContainers shares a pod's containers whole when they equal the kept ones. Each pod's
// containers differ in one place, the mount of its own kube-api-access-xxxxx volume, so otherwise
// each container borrows the kept one's parts that are equal (resources, ports, env, command,
// probes), and becomes the one to borrow from next.
func shareContainers(kept, v *[]api.Container) {
	if api.Equal(kept, v) {
		*v = *kept
		return
	}
	if len(*kept) == len(*v) {
		// The pod's own array, written below: an update's pod may hold the slice of the pod it
		// replaces, which other pods may share.
		*v = slices.Clone(*v)
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
	}
	*kept = *v
}

// shareVolumes lets each of a pod's volumes borrow the kept one's source where it is equal (the
// kube-api-access volume's source is the same in every pod; only its name differs).
func shareVolumes(kept, v *[]api.Volume) {
	if len(*kept) == len(*v) {
		*v = slices.Clone(*v) // the pod's own array, as in shareContainers
		for i := range *v {
			borrow(&(*kept)[i].VolumeSource, &(*v)[i].VolumeSource)
		}
	}
	*kept = *v
}

// borrow puts *kept in *v if they are equal; *kept is left as it is.
func borrow[T any](kept, v *T) {
	if api.Equal(kept, v) {
		*v = *kept
	}
}

// shareField puts *kept in *v if they are equal, else keeps *v as the one to share from now on.
func shareField[T any](kept, v *T) {
	if api.Equal(kept, v) {
		*v = *kept
	} else {
		*kept = *v
	}
}

// generation.go: which kinds keep metadata.generation, and which updates bump it. Interface:
// TracksGeneration, BumpsGeneration.
//
// In Kubernetes generation is not generic: each kind's registry strategy decides. A Pod, the
// workloads, an EndpointSlice, a PodDisruptionBudget and a PriorityClass start at 1; a Service, a
// Node, a Namespace, a ConfigMap or an Endpoints object never has one (`kubectl get svc -o yaml`
// shows no generation). Any kind that has one is bumped once more when its deletion starts (the
// first deletionTimestamp), so a controller sees that something changed.
package api

// TracksGeneration reports whether obj's kind has a metadata.generation that the apiserver sets to
// 1 on create (each kind's PrepareForCreate).
func TracksGeneration(obj Object) bool {
	switch obj.(type) {
	case *Pod, *Deployment, *ReplicaSet, *DaemonSet, *EndpointSlice, *PodDisruptionBudget, *PriorityClass:
		return true
	}
	return false
}

// BumpsGeneration reports whether an update from old to obj increments generation, by the rule of
// the kind's PrepareForUpdate: a change of spec for most; for a Deployment also of its annotations
// (they are copied to its ReplicaSets); for an EndpointSlice anything but metadata, or its labels;
// never for a PriorityClass, nor for a kind that keeps no generation.
func BumpsGeneration(obj, old Object) bool {
	switch obj.(type) {
	case *Pod, *ReplicaSet, *DaemonSet, *PodDisruptionBudget:
		return !SpecEqual(obj, old)
	case *Deployment:
		return !SpecEqual(obj, old) || !sameStringMap(obj.GetObjectMeta().Annotations, old.GetObjectMeta().Annotations)
	case *EndpointSlice:
		return !SpecEqual(obj, old) || !sameStringMap(obj.GetObjectMeta().Labels, old.GetObjectMeta().Labels)
	}
	return false
}

// sameStringMap is semantic equality of two maps: nil and empty are the same.
func sameStringMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

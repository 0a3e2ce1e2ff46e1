// claim.go: which pods a ReplicaSet manages. Ownership is the controller reference, not the labels:
// the ReplicaSet adopts an orphan pod whose labels match its selector (by writing itself into the
// pod's ownerReferences) and releases a pod it owns whose labels no longer match (by removing itself),
// which is how `kubectl label pod x app-` takes a pod out of service for debugging while the
// ReplicaSet makes a replacement.
//
//	claimPods(ctx, rs, selector) ([]*api.Pod, error)
package replicaset

import (
	"context"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/controllers/internal"
)

// claimPods returns the active pods the ReplicaSet manages, sorted by name, adopting and releasing on
// the way. The candidates are the pods it already owns and the orphans of its namespace, found through
// the informer's controller-UID index rather than by scanning every pod.
func (c *Controller) claimPods(ctx context.Context, rs *api.ReplicaSet, selector labels.Selector) ([]*api.Pod, error) {
	candidates := c.podInformer.ByIndex(internal.IndexControllerUID, rs.UID) // sorted by name
	if orphans := c.podInformer.ByIndex(internal.IndexControllerUID, internal.OrphanIndexValue(rs.Namespace)); len(orphans) > 0 {
		candidates = append(candidates, orphans...)
		slices.SortFunc(candidates, func(a, b *api.Pod) int { return strings.Compare(a.Name, b.Name) })
	}
	candidates = slices.DeleteFunc(candidates, func(p *api.Pod) bool { return !internal.IsPodActive(p) })

	w := internal.RefWriter[api.Pod, *api.Pod]{Owner: &rs.ObjectMeta, OwnerKind: "ReplicaSet",
		Objects: c.pods, Resource: "pods", Kind: "pod", Selector: selector, Tracer: c.tracer}
	return internal.Claim(ctx, &rs.ObjectMeta, selector, candidates, w.Adopt, w.Release)
}

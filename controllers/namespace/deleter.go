// deleter.go: Reconcile, emptying one Terminating namespace (the NamespacedResourcesDeleter).
//
//	for every namespaced kind: list the namespace's objects, delete those not already going
//	something still there (a pod in its grace period, an object with finalizers)? come back later
//	nothing left? remove the "kubernetes" finalizer through namespaces/finalize
package namespace

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/wire"
)

// Reconcile empties the namespace name if it is being deleted, and finalizes it once it is empty.
func (nc *Controller) Reconcile(ctx context.Context, name string) error {
	ns, ok := nc.namespaces.Get(name)
	if !ok || ns.DeletionTimestamp == nil || !hasFinalizer(ns) {
		return nil
	}
	path := "namespaces/" + name
	deleted, remaining, wait, err := nc.deleteContent(ctx, name)
	if len(deleted) > 0 {
		nc.tracer.Record("delete", path, ns.ResourceVersion,
			"namespace %s is Terminating: deleted %s", name, countsString(deleted))
	}
	if err != nil {
		return err
	}
	if len(remaining) > 0 {
		nc.tracer.Record("wait", path, ns.ResourceVersion,
			"namespace %s still holds %s being deleted: check again in %s", name, countsString(remaining), wait)
		nc.queue.AddAfter(name, wait)
		return nil
	}
	fin := api.DeepCopy(ns)
	var keep []api.FinalizerName
	for _, f := range fin.Spec.Finalizers {
		if f != api.FinalizerKubernetes {
			keep = append(keep, f)
		}
	}
	fin.Spec.Finalizers = keep
	nc.tracer.Record("finalize", path, ns.ResourceVersion,
		"namespace %s is empty: remove the finalizer %q (namespaces/finalize), so the apiserver deletes it", name, api.FinalizerKubernetes)
	_, err = nc.client.Resource(client.For[api.Namespace](nc.client).Info()).Update(ctx, fin, "finalize")
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// deleteContent deletes every object in namespace that is not already being deleted. It returns how
// many of each resource it deleted, how many remain (being deleted, not gone yet), and how long to
// wait before looking again: the longest remaining grace period, at least a second.
func (nc *Controller) deleteContent(ctx context.Context, namespace string) (deleted, remaining map[string]int, wait time.Duration, err error) {
	deleted, remaining = map[string]int{}, map[string]int{}
	wait = time.Second
	now := nc.clock.Now()
	for _, res := range api.Resources() {
		if !res.Namespaced {
			continue
		}
		items, _, err := nc.client.Resource(res).ListShared(ctx, namespace, client.ListOptions{})
		if err != nil {
			return deleted, remaining, wait, fmt.Errorf("listing %s in %s: %w", res.GroupResource(), namespace, err)
		}
		for _, obj := range items {
			m := obj.GetObjectMeta()
			if m.DeletionTimestamp == nil {
				out, gone, err := nc.client.Resource(res).Delete(ctx, namespace, m.Name,
					client.DeleteOptions{PropagationPolicy: wire.PropagationBackground})
				switch {
				case apierrors.IsNotFound(err):
					continue
				case err != nil:
					return deleted, remaining, wait, fmt.Errorf("deleting %s %s/%s: %w", res.GroupResource(), namespace, m.Name, err)
				}
				deleted[res.Name]++
				if gone {
					continue
				}
				m = out.GetObjectMeta()
			}
			remaining[res.Name]++
			if m.DeletionTimestamp != nil {
				wait = max(wait, m.DeletionTimestamp.Sub(now))
			}
		}
	}
	return deleted, remaining, wait, nil
}

func hasFinalizer(ns *api.Namespace) bool {
	for _, f := range ns.Spec.Finalizers {
		if f == api.FinalizerKubernetes {
			return true
		}
	}
	return false
}

// countsString renders {"pods": 3, "replicasets": 1} as "3 pods, 1 replicasets".
func countsString(counts map[string]int) string {
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[n], n))
	}
	return strings.Join(parts, ", ")
}

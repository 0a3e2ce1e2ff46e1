// reconcile.go: Reconcile, one look at one object (attemptToDeleteItem and friends in Kubernetes).
// Like every reconcile it is level-based: the key never says what changed, so it reads the object
// and its owners as they are now and does whatever is still needed.
//
//	being deleted, finalizer orphan              -> orphanDependents
//	being deleted, finalizer foregroundDeletion  -> finish once no blocking dependent is left
//	owners all gone or deleting in the foreground -> delete the object
//	some owner still there                       -> drop the references to the others
package garbagecollector

import (
	"context"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/wire"
)

// Reconcile looks at the object named by key ("replicasets/default/nginx-6d4cf56db6").
func (gc *GarbageCollector) Reconcile(ctx context.Context, key string) error {
	resource, namespace, name := splitPath(key)
	k := gc.kindOf(resource)
	if k == nil {
		return nil
	}
	cacheKey := name
	if namespace != "" {
		cacheKey = namespace + "/" + name
	}
	obj, ok := k.get(cacheKey)
	if !ok {
		return nil // gone already: its dependents were queued when it went
	}
	m := obj.GetObjectMeta()
	if m.DeletionTimestamp != nil {
		switch {
		case m.HasFinalizer(FinalizerOrphanDependents):
			return gc.orphanDependents(ctx, obj)
		case m.HasFinalizer(FinalizerDeleteDependents):
			return gc.finishForeground(ctx, obj)
		}
		return nil // someone else is deleting it
	}
	return gc.attemptToDelete(ctx, obj)
}

// attemptToDelete sorts an object's owners into solid (exist), dangling (gone) and waiting (being
// deleted in the foreground), and acts as Kubernetes does.
func (gc *GarbageCollector) attemptToDelete(ctx context.Context, obj api.Object) error {
	// The graph may be behind: read the object live, as attemptToDeleteItem does, so that an owner
	// reference removed a moment ago (orphaning) is not acted on.
	res, _ := api.ResourceOf(obj)
	cached := obj.GetObjectMeta()
	live, err := gc.client.Resource(res).Get(ctx, cached.Namespace, cached.Name)
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return err
	case live.GetObjectMeta().UID != cached.UID:
		return nil // same name, another object
	}
	obj = live
	m := obj.GetObjectMeta()
	if len(m.OwnerReferences) == 0 {
		return nil
	}
	var solid, dangling, waiting []api.OwnerReference
	for _, ref := range m.OwnerReferences {
		owner, err := gc.owner(ctx, ref, m.Namespace)
		if err != nil {
			return err
		}
		switch {
		case owner == nil:
			dangling = append(dangling, ref)
		case waitingForDependents(owner):
			waiting = append(waiting, ref)
		default:
			solid = append(solid, ref)
		}
	}
	path := objectPath(obj)
	switch {
	case len(solid) > 0:
		gone := append(dangling, waiting...)
		if len(gone) == 0 {
			return nil
		}
		// Another owner still holds the object: it stays, without the references to the others.
		gc.tracer.Record("update", path, m.ResourceVersion,
			"%s: owner %s still exists; remove the ownerReferences to %s", path, refPaths(solid, m.Namespace), refPaths(gone, m.Namespace))
		return gc.update(ctx, withoutOwners(obj, gone))
	case len(waiting) > 0:
		// An owner waits for its dependents. If this object has dependents of its own, it must
		// wait for them too, so it is deleted in the foreground as well: the chain blocks top down.
		policy := wire.PropagationBackground
		if len(gc.dependents(m.UID)) > 0 {
			policy = wire.PropagationForeground
		}
		gc.tracer.Record("delete", path, m.ResourceVersion,
			"delete %s: its owner %s is being deleted in the foreground (propagationPolicy %s)", path, refPaths(waiting, m.Namespace), policy)
		return gc.delete(ctx, obj, policy)
	default:
		gc.tracer.Record("delete", path, m.ResourceVersion,
			"delete %s: its owner %s is gone (background propagation)", path, refPaths(dangling, m.Namespace))
		return gc.delete(ctx, obj, wire.PropagationBackground)
	}
}

// owner returns the object ref points at, or nil if it no longer exists. A miss in the cache is
// confirmed with the apiserver (Kubernetes' isDangling): the cache may simply lag behind.
func (gc *GarbageCollector) owner(ctx context.Context, ref api.OwnerReference, namespace string) (api.Object, error) {
	if obj := gc.lookup(ref, namespace); obj != nil {
		return obj, nil
	}
	res, ok := api.ResourceForKind(ref.APIVersion, ref.Kind)
	if !ok {
		return nil, nil // a kind nobody serves cannot own anything
	}
	if !res.Namespaced {
		namespace = ""
	}
	owner, err := gc.client.Resource(res).Get(ctx, namespace, ref.Name)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	case owner.GetObjectMeta().UID != ref.UID:
		return nil, nil // same name, another object: the owner we meant is gone
	}
	return owner, nil
}

// orphanDependents is the orphan policy: every dependent loses its reference to the owner, then
// the owner loses its orphan finalizer (and the apiserver removes it).
func (gc *GarbageCollector) orphanDependents(ctx context.Context, owner api.Object) error {
	m := owner.GetObjectMeta()
	deps := gc.dependents(m.UID)
	path := objectPath(owner)
	gc.tracer.Record("orphan", path, m.ResourceVersion,
		"orphan the dependents of %s %v: remove their ownerReference, then the orphan finalizer", path, paths(deps))
	for _, dep := range deps {
		ref := api.OwnerReference{UID: m.UID}
		if err := gc.update(ctx, withoutOwners(dep, []api.OwnerReference{ref})); err != nil {
			return err
		}
	}
	return gc.update(ctx, withoutFinalizer(owner, FinalizerOrphanDependents))
}

// finishForeground removes the foregroundDeletion finalizer once no dependent with
// blockOwnerDeletion=true is left. The dependents themselves were queued when the owner's deletion
// began, and each is deleted by attemptToDelete.
func (gc *GarbageCollector) finishForeground(ctx context.Context, owner api.Object) error {
	m := owner.GetObjectMeta()
	path := objectPath(owner)
	var blocking []api.Object
	for _, dep := range gc.dependents(m.UID) {
		for _, ref := range dep.GetObjectMeta().OwnerReferences {
			if ref.UID == m.UID && ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion {
				blocking = append(blocking, dep)
				break
			}
		}
	}
	if len(blocking) > 0 {
		gc.tracer.Detail("wait", path, m.ResourceVersion,
			"%s is deleted in the foreground: waiting for %d dependents with blockOwnerDeletion %v", path, len(blocking), paths(blocking))
		return nil
	}
	gc.tracer.Record("update", path, m.ResourceVersion,
		"no dependent blocks %s any more: remove the foregroundDeletion finalizer, so the apiserver deletes it", path)
	return gc.update(ctx, withoutFinalizer(owner, FinalizerDeleteDependents))
}

func (gc *GarbageCollector) delete(ctx context.Context, obj api.Object, policy string) error {
	res, _ := api.ResourceOf(obj)
	m := obj.GetObjectMeta()
	_, _, err := gc.client.Resource(res).Delete(ctx, m.Namespace, m.Name, client.DeleteOptions{PropagationPolicy: policy})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func (gc *GarbageCollector) update(ctx context.Context, obj api.Object) error {
	res, _ := api.ResourceOf(obj)
	_, err := gc.client.Resource(res).Update(ctx, obj, "")
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// withoutOwners returns a copy of obj without the ownerReferences to the given owners' uids.
func withoutOwners(obj api.Object, drop []api.OwnerReference) api.Object {
	cp := api.DeepCopy(obj)
	m := cp.GetObjectMeta()
	var keep []api.OwnerReference
	for _, ref := range m.OwnerReferences {
		if !hasUID(drop, ref.UID) {
			keep = append(keep, ref)
		}
	}
	m.OwnerReferences = keep
	return cp
}

func hasUID(refs []api.OwnerReference, uid string) bool {
	for _, r := range refs {
		if r.UID == uid {
			return true
		}
	}
	return false
}

// withoutFinalizer returns a copy of obj without the named finalizer.
func withoutFinalizer(obj api.Object, finalizer string) api.Object {
	cp := api.DeepCopy(obj)
	m := cp.GetObjectMeta()
	var keep []string
	for _, f := range m.Finalizers {
		if f != finalizer {
			keep = append(keep, f)
		}
	}
	m.Finalizers = keep
	return cp
}

// refPaths names the objects some ownerReferences point at: "deployments/default/nginx".
func refPaths(refs []api.OwnerReference, namespace string) string {
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		out = append(out, refPath(r, namespace))
	}
	return strings.Join(out, ", ")
}

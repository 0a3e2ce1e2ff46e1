// controllerref.go: controller references, the ownerReference with controller=true that says which
// controller manages an object, and the ControllerRefManager's claim: adopt matching orphans, release
// owned objects whose labels no longer match, ignore what another controller owns.
//
//	NewControllerRef(owner, kind) api.OwnerReference
//	Claim(ctx, owner, selector, candidates, adopt, release) ([]PT, error)
//	RefWriter{...}.Adopt, .Release             Claim's adopt and release: write the reference, trace it
//	ResolveControllerRef(informer, kind, namespace, ref) PT   the cached owner a reference points to
//	IndexControllerUID, ControllerUIDIndex, OrphanIndexValue   an informer index: owned by UID, orphans by namespace
package internal

import (
	"context"
	"errors"
	"slices"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/client"
)

// NewControllerRef is the reference a controller puts on what it creates or adopts. blockOwnerDeletion
// makes a foreground deletion of the owner wait for this dependent.
func NewControllerRef(owner *api.ObjectMeta, kind string) api.OwnerReference {
	return api.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: owner.Name, UID: owner.UID,
		Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}
}

// Claim decides, for each candidate (every object of the kind in the owner's namespace), whether the
// owner manages it, and returns those it does, in the candidates' order:
//
//   - controlled by the owner and matching the selector: claimed;
//   - controlled by the owner but no longer matching: released (release removes the reference), unless
//     the owner is being deleted;
//   - an orphan that matches, with neither it nor the owner being deleted: adopted (adopt adds the
//     reference) and claimed;
//   - controlled by someone else, or an orphan that does not match: left alone.
//
// An object that vanished before it could be adopted or released is skipped; other errors are
// returned together after every candidate has been looked at.
func Claim[PT api.Object](ctx context.Context, owner *api.ObjectMeta, selector labels.Selector, candidates []PT,
	adopt, release func(context.Context, PT) error) ([]PT, error) {
	var claimed []PT
	var errs []error
	for _, obj := range candidates {
		m := obj.GetObjectMeta()
		if ref := m.ControllerRef(); ref != nil {
			if ref.UID != owner.UID {
				continue
			}
			if selector.Matches(labels.Set(m.Labels)) {
				claimed = append(claimed, obj)
				continue
			}
			if owner.DeletionTimestamp != nil {
				continue
			}
			if err := release(ctx, obj); err != nil && !apierrors.IsNotFound(err) {
				errs = append(errs, err)
			}
			continue
		}
		if owner.DeletionTimestamp != nil || m.DeletionTimestamp != nil || m.Namespace != owner.Namespace ||
			!selector.Matches(labels.Set(m.Labels)) {
			continue
		}
		if err := adopt(ctx, obj); err != nil {
			if !apierrors.IsNotFound(err) {
				errs = append(errs, err)
			}
			continue
		}
		claimed = append(claimed, obj)
	}
	return claimed, errors.Join(errs...)
}

// ResolveControllerRef returns the cached object of kind in namespace that ref points to, or nil when
// there is no reference, it is to another kind, or the object of that name is not the one referred to
// (deleted and made again: another UID). It is the resolveControllerRef of each Kubernetes controller.
func ResolveControllerRef[T any, PT client.ObjectPtr[T]](informer *client.Informer[T, PT], kind, namespace string, ref *api.OwnerReference) PT {
	if ref == nil || ref.Kind != kind {
		return nil
	}
	obj, ok := informer.Get(namespace + "/" + ref.Name)
	if !ok || obj.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return obj
}

// RefWriter writes Claim's adopt and release for one owner, as the ControllerRefManager does (with an
// update, see the package's simplifications): a private copy of the object with the owner's controller
// reference added or removed, written through Objects, and a line in the trace saying why.
type RefWriter[T any, PT client.ObjectPtr[T]] struct {
	Owner     *api.ObjectMeta
	OwnerKind string // "Deployment"
	Objects   client.Resource[T, PT]
	Resource  string // "replicasets": the trace's object is Resource/namespace/name
	Kind      string // "ReplicaSet", "pod": how the trace names one object
	Selector  labels.Selector
	Tracer    Tracer
}

// Adopt gives an orphan the owner's controller reference.
func (w RefWriter[T, PT]) Adopt(ctx context.Context, obj PT) error {
	return w.write(ctx, obj, "adopt", "an orphan whose labels match selector %s -> controller reference to %s %s",
		func(refs []api.OwnerReference) []api.OwnerReference {
			return append(refs, NewControllerRef(w.Owner, w.OwnerKind))
		})
}

// Release takes the owner's reference off an object whose labels no longer match.
func (w RefWriter[T, PT]) Release(ctx context.Context, obj PT) error {
	return w.write(ctx, obj, "release", "its labels no longer match selector %s -> controller reference to %s %s removed",
		func(refs []api.OwnerReference) []api.OwnerReference {
			return slices.DeleteFunc(refs, func(r api.OwnerReference) bool { return r.UID == w.Owner.UID })
		})
}

func (w RefWriter[T, PT]) write(ctx context.Context, obj PT, action, why string, edit func([]api.OwnerReference) []api.OwnerReference) error {
	cp := api.DeepCopy(obj)
	m := cp.GetObjectMeta()
	m.OwnerReferences = edit(m.OwnerReferences)
	updated, err := w.Objects.Update(ctx, cp)
	if err != nil {
		return err
	}
	key := obj.GetObjectMeta().Key()
	w.Tracer.Record(action, w.Resource+"/"+key, updated.GetObjectMeta().ResourceVersion,
		"%s %s %s: "+why, action, w.Kind, key, w.Selector, w.OwnerKind, w.Owner.Name)
	return nil
}

// IndexControllerUID is the name of the informer index that files objects under their controller's
// UID, and orphans under OrphanIndexValue(namespace), so a controller finds what it owns, and what it
// could adopt, without scanning the namespace (Kubernetes' PodControllerUIDIndex).
const IndexControllerUID = "controllerUID"

// OrphanIndexValue is the IndexControllerUID value of the orphans of a namespace.
func OrphanIndexValue(namespace string) string { return "orphan/" + namespace }

// ControllerUIDIndex is the IndexFunc of IndexControllerUID.
func ControllerUIDIndex[PT api.Object](obj PT) []string {
	m := obj.GetObjectMeta()
	if ref := m.ControllerRef(); ref != nil {
		return []string{ref.UID}
	}
	return []string{OrphanIndexValue(m.Namespace)}
}

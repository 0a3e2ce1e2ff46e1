// controllerref.go: controller references, the ownerReference with controller=true that says which
// controller manages an object, and the ControllerRefManager's claim: adopt matching orphans, release
// owned objects whose labels no longer match, ignore what another controller owns.
//
//	NewControllerRef(owner, kind) api.OwnerReference
//	Claim(ctx, owner, selector, candidates, adopt, release) ([]PT, error)
//	IndexControllerUID, ControllerUIDIndex, OrphanIndexValue   an informer index: owned by UID, orphans by namespace
package internal

import (
	"context"
	"errors"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
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

// eviction.go: the Eviction API's disruption budget check (k8s.io/kubernetes
// pkg/registry/core/pod/storage/eviction.go). An eviction is a delete that first asks the pod's
// PodDisruptionBudget whether one more pod may go:
//
//	checkBudget(ctx, req, user, pod) (format, args, error)   nil: go ahead (and one disruption is
//	                                                         taken), format and args saying why for
//	                                                         the trace; 429 TooManyRequests: not now
//
// A pod matched by no budget, or one that is not running (Pending, Succeeded, Failed) or already
// being deleted, may always go. A pod under one budget may go if the budget's disruptionsAllowed,
// which the disruption controller keeps, is above 0: the apiserver then takes one (disruptionsAllowed
// minus 1, the pod recorded in disruptedPods) in the same breath, so that two evictions racing for
// the last disruption cannot both win; the controller recounts once it sees the pod go. A budget the
// controller has not yet counted since its last change also answers 429. More than one budget for a
// pod is an error Kubernetes does not resolve.
package apiserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/store"
	"kubesim/wire"
)

// Kubernetes' words for a refused eviction.
const (
	evictionRefusedMsg = "Cannot evict pod as it would violate the pod's disruption budget."
	causeDisruption    = "DisruptionBudget"
	budgetRetries      = 5 // writes of the budget's status lost to a conflict before giving up
)

// checkBudget applies the pod's disruption budget to an eviction. It returns how the decision reads
// in the trace, after "eviction of pod NAMESPACE/NAME ".
func (s *Server) checkBudget(ctx context.Context, user User, pod *api.Pod) (string, []any, error) {
	if pod.DeletionTimestamp != nil || pod.Status.Phase == api.PodPending || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return "allowed (the pod is not running: no disruption budget applies)", nil, nil
	}
	res, _ := api.ResourceFor("poddisruptionbudgets")
	var names []string
	// The budgets come from the cache, once it holds every budget this apiserver has written: a budget
	// created a moment ago must not be missed (Kubernetes lists them with a consistent read).
	if err := s.fresh(ctx, res.Name); err != nil {
		return "", nil, apierrors.NewTimeout(fmt.Sprintf("waiting for the watch cache: %v", err))
	}
	objs, _ := s.cache.list(res, selection{namespace: pod.Namespace, labels: everythingLabels(), fields: everythingFields()})
	for _, obj := range objs {
		b := obj.(*api.PodDisruptionBudget)
		if sel, err := b.Spec.Selector.AsSelector(); err == nil && b.Spec.Selector != nil && sel.Matches(labels.Set(pod.Labels)) {
			names = append(names, b.Name)
		}
	}
	switch len(names) {
	case 0:
		return "allowed (no PodDisruptionBudget)", nil, nil
	case 1:
	default:
		return "", nil, apierrors.NewInternalError(errors.New("This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."))
	}
	for range budgetRetries {
		obj, err := s.read(ctx, res, pod.Namespace, names[0])
		if err != nil {
			return "", nil, err
		}
		b := api.DeepCopy(obj.(*api.PodDisruptionBudget))
		st := &b.Status
		switch {
		case st.ObservedGeneration < b.Generation:
			return "", nil, apierrors.NewTooManyRequests(evictionRefusedMsg, apierrors.StatusCause{Type: causeDisruption,
				Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", b.Name)})
		case st.DisruptionsAllowed <= 0:
			return "", nil, apierrors.NewTooManyRequests(evictionRefusedMsg, apierrors.StatusCause{Type: causeDisruption,
				Message: fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", b.Name, st.DesiredHealthy, st.CurrentHealthy)})
		}
		st.DisruptionsAllowed--
		if st.DisruptedPods == nil {
			st.DisruptedPods = map[string]api.Time{}
		}
		st.DisruptedPods[pod.Name] = api.NewTime(s.clock.Now())
		write := wire.Request{Verb: wire.VerbUpdate, Resource: res.Name, Subresource: "status", Namespace: b.Namespace, Name: b.Name}
		modRev, _ := strconv.ParseInt(b.ResourceVersion, 10, 64)
		err = s.persist(ctx, &write, res, user, b, modRev)
		if apierrors.IsConflict(err) || store.IsConflict(err) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		return "allowed by PodDisruptionBudget %s (disruptionsAllowed now %d)", []any{b.Name, st.DisruptionsAllowed}, nil
	}
	return "", nil, apierrors.NewTooManyRequests(evictionRefusedMsg, apierrors.StatusCause{Type: causeDisruption,
		Message: "the disruption budget is being changed by others: try again"})
}

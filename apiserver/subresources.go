// subresources.go: the special endpoints beside an object: pods/binding (how the scheduler assigns a
// pod to a node), pods/eviction (how drain asks a pod to leave), and deployments|replicasets/scale
// (how `kubectl scale` changes replicas without sending the whole object). pods/status and friends are
// in registry.go's updateStatus.
package apiserver

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/trace"
	"kubesim/wire"
)

// bind sets a pod's spec.nodeName. Only the binding subresource may do that, and only once: a pod that
// already has a node gets 409 Conflict, so two schedulers racing for one pod cannot both win.
func (s *Server) bind(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	b, ok := req.Body.(*api.Binding)
	if !ok {
		return nil, apierrors.NewBadRequest("pods/binding needs a Binding body")
	}
	if b.Target.Name == "" {
		return nil, apierrors.NewInvalid("Binding", req.Name, nil)
	}
	// Like an update, start from the watch cache's copy (kube-apiserver's GuaranteedUpdate behind its
	// cacher does): a binding carries no resourceVersion, so any copy will do as long as the
	// compare-and-swap finds etcd still at it, and the cache holds this apiserver's own writes to the
	// pod. When the swap fails, or the copy says no (being deleted, already bound: etcd's copy may
	// say why differently), etcd's copy decides.
	if !req.DryRun && s.cache.settled(etcdKey(res, req.Namespace, req.Name)) {
		if cached, ok := s.cache.get(res, req.Namespace+"/"+req.Name).(*api.Pod); ok && cached.DeletionTimestamp == nil && cached.Spec.NodeName == "" {
			resp, err := s.bindFrom(ctx, req, res, user, b, cached)
			if !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
				return resp, err
			}
		}
	}
	old, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	return s.bindFrom(ctx, req, res, user, b, old)
}

// bindFrom is bind applied to old, the current pod as this apiserver knows it (never modified).
//
// The bound pod is a deep copy of old, or, for a caller that takes the answer as read-only
// (answerShared), old's top level with a conditions list of its own, sharing the rest with old; the
// watch cache then keeps that pod as it is.
func (s *Server) bindFrom(ctx context.Context, req *wire.Request, res *api.Resource, user User, b *api.Binding, old api.Object) (*wire.Response, error) {
	given := answerShared(req)
	var pod *api.Pod
	if given {
		pod = shallowCopy(old).(*api.Pod)
		pod.Status.Conditions = slices.Clone(pod.Status.Conditions) // setPodCondition writes to it
	} else {
		pod = api.DeepCopy(old).(*api.Pod)
	}
	conflict := func(why string) error {
		return apierrors.NewConflict("pods/binding", req.Name, why)
	}
	switch {
	case pod.DeletionTimestamp != nil:
		return nil, conflict(fmt.Sprintf("pod %s is being deleted, cannot be assigned to a host", req.Name))
	case pod.Spec.NodeName != "":
		return nil, conflict(fmt.Sprintf("pod %s is already assigned to node %q", req.Name, pod.Spec.NodeName))
	}
	pod.Spec.NodeName = b.Target.Name
	setPodCondition(pod, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue,
		LastTransitionTime: api.NewTime(s.clock.Now())})
	if req.DryRun {
		return &wire.Response{Object: pod}, nil
	}
	modRev, _ := strconv.ParseInt(old.GetObjectMeta().ResourceVersion, 10, 64)
	answer, err := s.persistAnswer(ctx, req, res, user, pod, modRev, given)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Object: answer}, nil
}

// setPodCondition replaces the condition of the same type, keeping its transition time when the
// status did not change.
func setPodCondition(pod *api.Pod, c api.PodCondition) {
	for i, old := range pod.Status.Conditions {
		if old.Type == c.Type {
			if old.Status == c.Status {
				c.LastTransitionTime = old.LastTransitionTime
			}
			pod.Status.Conditions[i] = c
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, c)
}

// evict is the Eviction API: a polite delete that honours the pod's grace period, once the pod's
// disruption budget allows it (eviction.go).
func (s *Server) evict(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	ev, ok := req.Body.(*api.Eviction)
	if !ok {
		return nil, apierrors.NewBadRequest("pods/eviction needs an Eviction body")
	}
	if err := s.admitNodeDelete(ctx, req, res, user); err != nil {
		return nil, err
	}
	obj, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	decision, args, err := s.checkBudget(ctx, user, obj.(*api.Pod))
	if err != nil {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "evict"}.
			Msgf("eviction of pod %s/%s refused: %v", req.Namespace, req.Name, err))
		return nil, err
	}
	del := *req
	del.Verb, del.Subresource, del.Body = wire.VerbDelete, "", nil
	if ev.DeleteOptions != nil && ev.DeleteOptions.GracePeriodSeconds != nil {
		del.GracePeriodSeconds = ev.DeleteOptions.GracePeriodSeconds
	}
	s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "evict"}.
		Msgf("eviction of pod %s/%s "+decision, append([]any{req.Namespace, req.Name}, args...)...))
	return s.delete(ctx, &del, res, user)
}

// scaleOf reads replicas and the selector of a Deployment or ReplicaSet into a Scale.
func scaleOf(obj api.Object) (*api.Scale, error) {
	sc := &api.Scale{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}}
	m := obj.GetObjectMeta()
	sc.ObjectMeta = api.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID,
		ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp}
	var sel *api.LabelSelector
	switch o := obj.(type) {
	case *api.Deployment:
		sc.Spec.Replicas = derefInt32(o.Spec.Replicas)
		sc.Status.Replicas = o.Status.Replicas
		sel = o.Spec.Selector
	case *api.ReplicaSet:
		sc.Spec.Replicas = derefInt32(o.Spec.Replicas)
		sc.Status.Replicas = o.Status.Replicas
		sel = o.Spec.Selector
	default:
		return nil, apierrors.NewBadRequest("scale is served for deployments and replicasets")
	}
	if sel != nil {
		sc.Status.Selector = sel.String()
	}
	return sc, nil
}

func derefInt32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func (s *Server) getScale(ctx context.Context, req *wire.Request, res *api.Resource) (*wire.Response, error) {
	obj, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	sc, err := scaleOf(obj)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Object: sc}, nil
}

// updateScale changes spec.replicas, checking the Scale's resourceVersion like any update.
func (s *Server) updateScale(ctx context.Context, req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	sc, ok := req.Body.(*api.Scale)
	if !ok {
		return nil, apierrors.NewBadRequest("the scale subresource needs a Scale body")
	}
	// A write with no resourceVersion (kubectl scale's merge patch) applies to the object as it is
	// when written: like kube-apiserver's GuaranteedUpdate, a compare-and-swap lost to another writer
	// reads again and retries instead of answering 409 Conflict.
	for attempt := 1; ; attempt++ {
		resp, err := s.writeScale(ctx, req, res, user, sc)
		if sc.ResourceVersion != "" || !apierrors.IsConflict(err) || attempt == maxUnconditionalAttempts {
			return resp, err
		}
	}
}

// maxUnconditionalAttempts bounds the retries of a write without a precondition that keeps losing
// its compare-and-swap.
const maxUnconditionalAttempts = 5

// writeScale is one attempt of updateScale, from a fresh read.
func (s *Server) writeScale(ctx context.Context, req *wire.Request, res *api.Resource, user User, sc *api.Scale) (*wire.Response, error) {
	old, err := s.read(ctx, res, req.Namespace, req.Name)
	if err != nil {
		return nil, err
	}
	if rv := sc.ResourceVersion; rv != "" && rv != old.GetObjectMeta().ResourceVersion {
		return nil, apierrors.NewConflict(res.GroupResource(), req.Name, apierrors.OptimisticLockErrorMsg)
	}
	obj := api.DeepCopy(old)
	replicas := sc.Spec.Replicas
	switch o := obj.(type) {
	case *api.Deployment:
		o.Spec.Replicas = &replicas
	case *api.ReplicaSet:
		o.Spec.Replicas = &replicas
	}
	if !api.SpecEqual(obj, old) {
		obj.GetObjectMeta().Generation++
	}
	if err := s.validate(ctx, req, res, user, obj, old); err != nil {
		return nil, err
	}
	resp, err := s.finishUpdate(ctx, req, res, user, obj, old)
	if err != nil {
		return nil, err
	}
	out, err := scaleOf(resp.Object)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Object: out}, nil
}

// disruption.go: the disruption controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, key)          recount one budget, "namespace/name"
//
// What queues a budget: its creation or change, and any change of a pod its selector picks (the pod
// comes, goes, turns Ready or not, starts terminating), and of a ReplicaSet or Deployment in its
// namespace (their scale is the expected count).
package disruption

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=disruption).
const Name = "disruption-controller"

// DeletionTimeout is how long an evicted pod may stay in disruptedPods without being seen to go.
const DeletionTimeout = 2 * time.Minute

// Controller keeps the status of every PodDisruptionBudget.
type Controller struct {
	workloop.Component
	client      *client.Client
	clock       clock.Clock
	tracer      internal.Tracer
	queue       *workqueue.Queue[string]
	budgets     *client.Informer[api.PodDisruptionBudget, *api.PodDisruptionBudget]
	pods        *client.Informer[api.Pod, *api.Pod]
	replicaSets *client.Informer[api.ReplicaSet, *api.ReplicaSet]
	deployments *client.Informer[api.Deployment, *api.Deployment]
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	dc := &Controller{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr},
		queue:       workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]()),
		budgets:     client.InformerFor[api.PodDisruptionBudget](informers, client.FactoryOptions{}),
		pods:        client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		replicaSets: client.InformerFor[api.ReplicaSet](informers, client.FactoryOptions{}),
		deployments: client.InformerFor[api.Deployment](informers, client.FactoryOptions{}),
	}
	dc.Component = workloop.NewComponent(&workloop.Loop{Queue: dc.queue, Reconcile: dc.Reconcile, Workers: 1,
		Component: Name, Actor: internal.User, Trace: tr, Resource: "poddisruptionbudgets"},
		dc.budgets, dc.pods, dc.replicaSets, dc.deployments)
	enqueue := func(b *api.PodDisruptionBudget) { dc.queue.Add(b.Namespace + "/" + b.Name) }
	dc.budgets.AddHandler(client.Handler[*api.PodDisruptionBudget]{
		OnAdd:    enqueue,
		OnUpdate: func(_, b *api.PodDisruptionBudget) { enqueue(b) },
	})
	podChanged := func(p *api.Pod) { dc.enqueueBudgetsOf(p.Namespace, p.Labels) }
	dc.pods.AddHandler(client.Handler[*api.Pod]{
		OnAdd:    podChanged,
		OnDelete: podChanged,
		OnUpdate: func(old, p *api.Pod) {
			if api.IsPodReady(old) != api.IsPodReady(p) || (old.DeletionTimestamp == nil) != (p.DeletionTimestamp == nil) || !maps.Equal(old.Labels, p.Labels) {
				podChanged(old)
				podChanged(p)
			}
		},
	})
	scaled := func(namespace string) {
		for _, b := range dc.budgets.ByIndex(client.IndexNamespace, namespace) {
			enqueue(b)
		}
	}
	dc.replicaSets.AddHandler(client.Handler[*api.ReplicaSet]{OnUpdate: func(old, rs *api.ReplicaSet) {
		if replicas(old.Spec.Replicas) != replicas(rs.Spec.Replicas) {
			scaled(rs.Namespace)
		}
	}})
	dc.deployments.AddHandler(client.Handler[*api.Deployment]{OnUpdate: func(old, d *api.Deployment) {
		if replicas(old.Spec.Replicas) != replicas(d.Spec.Replicas) {
			scaled(d.Namespace)
		}
	}})
	return dc
}

// enqueueBudgetsOf queues the budgets in namespace whose selector matches these labels.
func (dc *Controller) enqueueBudgetsOf(namespace string, podLabels map[string]string) {
	for _, b := range dc.budgets.ByIndex(client.IndexNamespace, namespace) {
		if sel, err := selectorOf(b); err == nil && sel.Matches(labels.Set(podLabels)) {
			dc.queue.Add(b.Namespace + "/" + b.Name)
		}
	}
}

// Reconcile recounts one budget and writes its status if it changed.
func (dc *Controller) Reconcile(ctx context.Context, key string) (workloop.Result, error) {
	namespace, _, _ := strings.Cut(key, "/")
	cached, ok := dc.budgets.Get(key)
	if !ok {
		return workloop.Result{Idle: true}, nil
	}
	b := api.DeepCopy(cached)
	sel, err := selectorOf(b)
	if err != nil {
		return workloop.Result{Idle: true}, nil
	}
	var pods []*api.Pod
	for _, p := range dc.pods.ByIndex(client.IndexNamespace, namespace) {
		if sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	expected, desired := dc.expectations(b, pods)
	now := dc.clock.Now()
	disrupted, recheck := dc.liveDisruptions(b.Status.DisruptedPods, pods, now)
	healthy := int32(0)
	for _, p := range pods {
		if _, gone := disrupted[p.Name]; !gone && p.DeletionTimestamp == nil && api.IsPodReady(p) {
			healthy++
		}
	}
	st := api.PodDisruptionBudgetStatus{ObservedGeneration: b.Generation, DisruptedPods: disrupted,
		DisruptionsAllowed: max(healthy-desired, 0), CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected}
	st.Conditions = []api.Condition{allowedCondition(st.DisruptionsAllowed > 0, b, now)}
	result := workloop.Result{RequeueAfter: recheck}
	if statusEqual(b.Status, st) {
		result.Idle = true
		return result, nil
	}
	b.Status = st
	written, err := client.For[api.PodDisruptionBudget](dc.client).UpdateStatus(ctx, b)
	if err != nil {
		return workloop.Result{}, err
	}
	dc.tracer.Record("update", "poddisruptionbudgets/"+key, written.ResourceVersion,
		"budget %s: %d healthy of %d expected, %d desired -> disruptionsAllowed %d", key, healthy, expected, desired, st.DisruptionsAllowed)
	return result, nil
}

// expectations computes expectedPods and desiredHealthy (getExpectedPodCount).
func (dc *Controller) expectations(b *api.PodDisruptionBudget, pods []*api.Pod) (expected, desired int32) {
	if m := b.Spec.MinAvailable; m != nil && m.Type == api.IntType {
		return int32(len(pods)), m.IntVal
	}
	expected = dc.expectedScale(pods)
	switch {
	case b.Spec.MaxUnavailable != nil:
		n, err := b.Spec.MaxUnavailable.ScaledValue(int(expected), true)
		if err == nil {
			desired = max(expected-int32(n), 0)
		}
	case b.Spec.MinAvailable != nil:
		n, err := b.Spec.MinAvailable.ScaledValue(int(expected), true)
		if err == nil {
			desired = int32(n)
		}
	}
	return expected, desired
}

// expectedScale sums the scale of the pods' controllers, each counted once: a ReplicaSet owned by a
// Deployment counts as the Deployment. A pod without a controller counts as itself.
func (dc *Controller) expectedScale(pods []*api.Pod) int32 {
	seen := map[string]bool{}
	total := int32(0)
	for _, p := range pods {
		ref := p.ControllerRef()
		if ref == nil || ref.Kind != "ReplicaSet" {
			total++
			continue
		}
		rs, ok := dc.replicaSets.Get(p.Namespace + "/" + ref.Name)
		if !ok {
			continue
		}
		owner, scale := "ReplicaSet/"+rs.Name, replicas(rs.Spec.Replicas)
		if dref := rs.ControllerRef(); dref != nil && dref.Kind == "Deployment" {
			if d, ok := dc.deployments.Get(p.Namespace + "/" + dref.Name); ok {
				owner, scale = "Deployment/"+d.Name, replicas(d.Spec.Replicas)
			}
		}
		if !seen[owner] {
			seen[owner] = true
			total += scale
		}
	}
	return total
}

// liveDisruptions keeps the entries of disruptedPods whose pod is still there, not being deleted,
// and evicted less than DeletionTimeout ago; recheck is when the oldest kept entry expires.
func (dc *Controller) liveDisruptions(disrupted map[string]api.Time, pods []*api.Pod, now time.Time) (map[string]api.Time, time.Duration) {
	if len(disrupted) == 0 {
		return nil, 0
	}
	live := map[string]bool{}
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			live[p.Name] = true
		}
	}
	var kept map[string]api.Time
	var recheck time.Duration
	for name, at := range disrupted {
		left := at.Add(DeletionTimeout).Sub(now)
		if !live[name] || left <= 0 {
			continue
		}
		if kept == nil {
			kept = map[string]api.Time{}
		}
		kept[name] = at
		if recheck == 0 || left < recheck {
			recheck = left
		}
	}
	return kept, recheck
}

// allowedCondition is the DisruptionAllowed condition, its transition time kept while its status holds.
func allowedCondition(allowed bool, b *api.PodDisruptionBudget, now time.Time) api.Condition {
	c := api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.InsufficientPodsReason,
		ObservedGeneration: b.Generation, LastTransitionTime: api.NewTime(now)}
	if allowed {
		c.Status, c.Reason = api.ConditionTrue, api.SufficientPodsReason
	}
	for _, old := range b.Status.Conditions {
		if old.Type == c.Type && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	return c
}

// statusEqual compares two statuses as printed: a time decoded from JSON and one built here differ in
// representation only.
func statusEqual(a, b api.PodDisruptionBudgetStatus) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func selectorOf(b *api.PodDisruptionBudget) (labels.Selector, error) {
	if b.Spec.Selector == nil {
		return labels.Nothing(), nil
	}
	return b.Spec.Selector.AsSelector()
}

func replicas(r *int32) int32 { return api.Deref(r, 1) }

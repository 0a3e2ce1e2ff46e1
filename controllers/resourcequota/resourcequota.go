// resourcequota.go: the resource quota controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract (client.Component)
//	Reconcile(ctx, key)          recount one quota, "namespace/name" (in usage.go)
//
// What queues a quota: its creation and changes of its spec.hard; the creation, deletion or change
// of usage (a pod reaching Succeeded or Failed) of an object it counts in its namespace
// (replenishment); and the resync, one key that requeues itself every ResyncPeriod and queues every
// quota.
package resourcequota

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=resourcequota).
const Name = "resourcequota-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// ResyncPeriod is --resource-quota-sync-period: how often every quota is recounted in full, whatever
// happened.
const ResyncPeriod = 5 * time.Minute

// resyncKey is the work-queue key of the periodic resync; quota keys are "namespace/name".
const resyncKey = "resync"

// Controller keeps the status of every ResourceQuota.
type Controller struct {
	client *client.Client
	clock  clock.Clock
	tracer internal.Tracer
	quotas *client.Informer[api.ResourceQuota, *api.ResourceQuota]
	// kinds are what the controller counts, each with its informer (written only in New).
	kinds []countedKind
	queue *workqueue.Queue[string]
	loop  *workloop.Loop
}

// countedKind is one resource whose objects quotas count, and how to list them in a namespace.
type countedKind struct {
	res      *api.Resource
	informer client.InformerHandle
	list     func(namespace string) []api.Object
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	rq := &Controller{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr},
		quotas: client.InformerFor[api.ResourceQuota](informers, client.FactoryOptions{}),
		queue:  workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	rq.loop = &workloop.Loop{Queue: rq.queue, Reconcile: rq.Reconcile, Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "resourcequotas"}
	rq.quotas.AddHandler(client.Handler[*api.ResourceQuota]{
		OnAdd: func(q *api.ResourceQuota) { rq.queue.Add(quotaKey(q)) },
		OnUpdate: func(old, q *api.ResourceQuota) {
			if !equalLists(old.Spec.Hard, q.Spec.Hard) {
				rq.queue.Add(quotaKey(q))
			}
		},
	})
	count(rq, client.InformerFor[api.Pod](informers, client.FactoryOptions{}))
	count(rq, client.InformerFor[api.Service](informers, client.FactoryOptions{}))
	count(rq, client.InformerFor[api.ServiceAccount](informers, client.FactoryOptions{}))
	count(rq, rq.quotas)
	count(rq, client.InformerFor[api.Deployment](informers, client.FactoryOptions{}))
	count(rq, client.InformerFor[api.ReplicaSet](informers, client.FactoryOptions{}))
	count(rq, client.InformerFor[api.DaemonSet](informers, client.FactoryOptions{}))
	rq.queue.AddAfter(resyncKey, ResyncPeriod)
	return rq
}

// count makes the controller count the objects of inf's kind and replenish the quotas of a namespace
// when one of them comes, goes, or changes what it counts for (Kubernetes' quota monitor).
func count[T any, PT client.ObjectPtr[T]](rq *Controller, inf *client.Informer[T, PT]) {
	res, _ := api.ResourceOf(PT(new(T)))
	rq.kinds = append(rq.kinds, countedKind{res: res, informer: inf, list: func(namespace string) []api.Object {
		objs := inf.ByIndex(client.IndexNamespace, namespace)
		out := make([]api.Object, len(objs))
		for i, o := range objs {
			out[i] = o
		}
		return out
	}})
	inf.AddHandler(client.Handler[PT]{
		OnAdd:    func(obj PT) { rq.replenish(res, obj.GetObjectMeta().Namespace) },
		OnDelete: func(obj PT) { rq.replenish(res, obj.GetObjectMeta().Namespace) },
		OnUpdate: func(old, obj PT) {
			if len(rq.quotas.ByIndex(client.IndexNamespace, obj.GetObjectMeta().Namespace)) == 0 {
				return // no quota there to care (and no need to evaluate the usage)
			}
			now := rq.clock.Now()
			if !equalLists(api.QuotaUsage(old, now), api.QuotaUsage(obj, now)) {
				rq.replenish(res, obj.GetObjectMeta().Namespace)
			}
		},
	})
}

// replenish queues the quotas of namespace that count res.
func (rq *Controller) replenish(res *api.Resource, namespace string) {
	counted := api.QuotaResources(res)
	for _, q := range rq.quotas.ByIndex(client.IndexNamespace, namespace) {
		for _, name := range counted {
			if _, ok := q.Spec.Hard[name]; ok {
				rq.queue.Add(quotaKey(q))
				break
			}
		}
	}
}

// quotaKey is a quota's work-queue key.
func quotaKey(q *api.ResourceQuota) string { return q.Namespace + "/" + q.Name }

// Name is the component's name in the trace.
func (rq *Controller) Name() string { return Name }

// Informers are the controller's informers: the quotas, then each counted kind.
func (rq *Controller) Informers() []client.InformerHandle {
	out := []client.InformerHandle{rq.quotas}
	for _, k := range rq.kinds {
		if k.informer != client.InformerHandle(rq.quotas) {
			out = append(out, k.informer)
		}
	}
	return out
}

// Step recounts queued quotas until one needs a write, if any is queued (see workloop.Loop).
func (rq *Controller) Step(ctx context.Context) (bool, error) { return rq.loop.Step(ctx) }

// Run runs the controller's one worker until ctx ends.
func (rq *Controller) Run(ctx context.Context) { rq.loop.Run(ctx) }

// equalLists reports whether two resource lists hold the same quantities under the same names.
func equalLists(a, b resource.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, q := range a {
		other, ok := b[name]
		if !ok || !q.Equal(other) {
			return false
		}
	}
	return true
}

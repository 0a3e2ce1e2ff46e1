// serviceaccount.go: the service account controller component.
//
//	New(c, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract (sim.Component)
//	Reconcile(ctx, namespace)    create "default" in namespace if it is missing
//
// A namespace is queued when it appears or changes, and when its "default" ServiceAccount is deleted.
package serviceaccount

import (
	"context"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=serviceaccount).
const Name = "serviceaccount-controller"

// Identity is the user the controller manager authenticates as.
const Identity = "system:kube-controller-manager"

// DefaultServiceAccountName is the service account every namespace gets.
const DefaultServiceAccountName = "default"

// Controller ensures the "default" ServiceAccount in every active namespace.
type Controller struct {
	client          *client.Client
	trace           *trace.Recorder
	namespaces      *client.Informer[api.Namespace, *api.Namespace]
	serviceAccounts *client.Informer[api.ServiceAccount, *api.ServiceAccount]
	queue           *workqueue.Queue[string]
}

// New builds the controller. c must act as system:kube-controller-manager.
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder) *Controller {
	sc := &Controller{client: c, trace: tr,
		namespaces:      client.NewInformer[api.Namespace](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " namespaces"}),
		serviceAccounts: client.NewInformer[api.ServiceAccount](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " serviceaccounts"}),
		queue:           workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	sc.namespaces.AddHandler(client.Handler[*api.Namespace]{
		OnAdd:    func(ns *api.Namespace) { sc.queue.Add(ns.Name) },
		OnUpdate: func(_, ns *api.Namespace) { sc.queue.Add(ns.Name) },
	})
	sc.serviceAccounts.AddHandler(client.Handler[*api.ServiceAccount]{
		OnDelete: func(sa *api.ServiceAccount) {
			if sa.Name == DefaultServiceAccountName {
				sc.queue.Add(sa.Namespace)
			}
		},
	})
	return sc
}

// Name is the component's name in the trace.
func (sc *Controller) Name() string { return Name }

// Informers are the controller's informers.
func (sc *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{sc.namespaces, sc.serviceAccounts}
}

// Step reconciles one queued namespace, if any.
func (sc *Controller) Step(ctx context.Context) (bool, error) {
	ns, ok := sc.queue.TryGet()
	if !ok {
		return false, nil
	}
	return sc.process(ctx, ns), ctx.Err()
}

// Run works in real time until ctx ends.
func (sc *Controller) Run(ctx context.Context) {
	for _, inf := range sc.Informers() {
		go inf.Run(ctx)
	}
	context.AfterFunc(ctx, sc.queue.ShutDown)
	for {
		ns, shutdown := sc.queue.Get()
		if shutdown {
			return
		}
		sc.process(ctx, ns)
	}
}

// process reconciles one namespace and reports whether it wrote anything: most namespaces need no
// work, and a look that finds nothing to do is not a step worth telling.
func (sc *Controller) process(ctx context.Context, ns string) bool {
	defer sc.queue.Done(ns)
	created, err := sc.reconcile(ctx, ns)
	if err != nil {
		sc.trace.Record(trace.Event{Component: Name, Actor: Identity, Action: "retry", Object: "namespaces/" + ns}.
			Msgf("reconcile namespace %s failed: %v (retry %d with backoff)", ns, err, sc.queue.NumRequeues(ns)+1))
		sc.queue.AddRateLimited(ns)
		return true
	}
	sc.queue.Forget(ns)
	return created
}

// Reconcile creates the "default" ServiceAccount in namespace if the namespace is active and has none.
func (sc *Controller) Reconcile(ctx context.Context, namespace string) error {
	_, err := sc.reconcile(ctx, namespace)
	return err
}

func (sc *Controller) reconcile(ctx context.Context, namespace string) (bool, error) {
	ns, ok := sc.namespaces.Get(namespace)
	if !ok || ns.DeletionTimestamp != nil || ns.Status.Phase == api.NamespaceTerminating {
		return false, nil
	}
	if _, ok := sc.serviceAccounts.Get(namespace + "/" + DefaultServiceAccountName); ok {
		return false, nil
	}
	sc.trace.Record(trace.Event{Component: Name, Actor: Identity, Action: "create",
		Object: "serviceaccounts/" + namespace + "/" + DefaultServiceAccountName, ResourceVersion: ns.ResourceVersion}.
		Msgf("namespace %s has no ServiceAccount %q: create it", namespace, DefaultServiceAccountName))
	_, err := client.For[api.ServiceAccount](sc.client).Create(ctx, &api.ServiceAccount{
		ObjectMeta: api.ObjectMeta{Name: DefaultServiceAccountName, Namespace: namespace}})
	if apierrors.IsAlreadyExists(err) {
		return true, nil // our cache lagged: it is there, which is all we wanted
	}
	return true, err
}

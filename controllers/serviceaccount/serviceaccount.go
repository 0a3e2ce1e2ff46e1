// serviceaccount.go: the service account controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
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
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=serviceaccount).
const Name = "serviceaccount-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// DefaultServiceAccountName is the service account every namespace gets.
const DefaultServiceAccountName = "default"

// Controller ensures the "default" ServiceAccount in every active namespace.
type Controller struct {
	workloop.Component
	client          *client.Client
	tracer          internal.Tracer
	namespaces      *client.Informer[api.Namespace, *api.Namespace]
	serviceAccounts *client.Informer[api.ServiceAccount, *api.ServiceAccount]
	queue           *workqueue.Queue[string]
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	sc := &Controller{client: c, tracer: internal.Tracer{Component: Name, Recorder: tr},
		namespaces:      client.InformerFor[api.Namespace](informers, client.FactoryOptions{}),
		serviceAccounts: client.InformerFor[api.ServiceAccount](informers, client.FactoryOptions{}),
		queue:           workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	// Most namespaces need no work: a look that finds the ServiceAccount there is Idle, not a step
	// worth telling.
	sc.Component = workloop.NewComponent(&workloop.Loop{Queue: sc.queue, Reconcile: sc.Reconcile, Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "namespaces"},
		sc.namespaces, sc.serviceAccounts)
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

// Reconcile creates the "default" ServiceAccount in namespace if the namespace is active and has none.
// It is Idle when the namespace needs nothing.
func (sc *Controller) Reconcile(ctx context.Context, namespace string) (workloop.Result, error) {
	ns, ok := sc.namespaces.Get(namespace)
	if !ok || ns.DeletionTimestamp != nil || ns.Status.Phase == api.NamespaceTerminating {
		return workloop.Result{Idle: true}, nil
	}
	if _, ok := sc.serviceAccounts.Get(namespace + "/" + DefaultServiceAccountName); ok {
		return workloop.Result{Idle: true}, nil
	}
	sc.tracer.Record("create", "serviceaccounts/"+namespace+"/"+DefaultServiceAccountName, ns.ResourceVersion,
		"namespace %s has no ServiceAccount %q: create it", namespace, DefaultServiceAccountName)
	_, err := client.For[api.ServiceAccount](sc.client).Create(ctx, &api.ServiceAccount{
		ObjectMeta: api.ObjectMeta{Name: DefaultServiceAccountName, Namespace: namespace}})
	if apierrors.IsAlreadyExists(err) {
		return workloop.Result{}, nil // our cache lagged: it is there, which is all we wanted
	}
	return workloop.Result{}, err
}

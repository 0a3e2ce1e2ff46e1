// publisher.go: the root CA publisher component.
//
//	New(c, informers, clk, tr, rootCA) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, namespace)    create or put back kube-root-ca.crt in namespace
//
// A namespace is queued when it appears or changes, and when its kube-root-ca.crt is changed or
// deleted.
package rootcacertpublisher

import (
	"context"
	"maps"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=root-ca-cert-publisher).
const Name = "root-ca-cert-publisher"

// Controller keeps kube-root-ca.crt in every namespace.
type Controller struct {
	workloop.Component
	client     *client.Client
	tracer     internal.Tracer
	rootCA     []byte
	namespaces *client.Informer[api.Namespace, *api.Namespace]
	configMaps *client.Informer[api.ConfigMap, *api.ConfigMap]
	queue      *workqueue.Queue[string]
}

// New builds the controller on informers from the shared factory; rootCA is the cluster's CA
// certificate, PEM. c must act as system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, rootCA []byte) *Controller {
	pc := &Controller{client: c, tracer: internal.Tracer{Component: Name, Recorder: tr}, rootCA: rootCA,
		namespaces: client.InformerFor[api.Namespace](informers, client.FactoryOptions{}),
		configMaps: client.InformerFor[api.ConfigMap](informers, client.FactoryOptions{}),
		queue:      workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	// A namespace that already has its ConfigMap needs nothing: Idle, not a step worth telling.
	pc.Component = workloop.NewComponent(&workloop.Loop{Queue: pc.queue, Reconcile: pc.Reconcile, Workers: 1,
		Component: Name, Actor: internal.User, Trace: tr, Resource: "namespaces"},
		pc.namespaces, pc.configMaps)
	pc.namespaces.AddHandler(client.Handler[*api.Namespace]{
		OnAdd: func(ns *api.Namespace) { pc.queue.Add(ns.Name) },
		OnUpdate: func(_, ns *api.Namespace) {
			if ns.Status.Phase == api.NamespaceActive {
				pc.queue.Add(ns.Name)
			}
		},
	})
	ours := func(cm *api.ConfigMap) {
		if cm.Name == api.RootCAConfigMap {
			pc.queue.Add(cm.Namespace)
		}
	}
	pc.configMaps.AddHandler(client.Handler[*api.ConfigMap]{
		OnUpdate: func(_, cm *api.ConfigMap) { ours(cm) },
		OnDelete: ours,
	})
	return pc
}

// Reconcile creates kube-root-ca.crt in namespace, or puts back its CA and description. It is Idle
// when the ConfigMap is as it should be, or the namespace is gone or terminating (the create would
// be refused; a namespace that starts terminating meanwhile is retried, then left alone).
func (pc *Controller) Reconcile(ctx context.Context, namespace string) (workloop.Result, error) {
	want := api.RootCAConfigMapFor(namespace, pc.rootCA)
	cm, ok := pc.configMaps.Get(namespace + "/" + api.RootCAConfigMap)
	if !ok {
		ns, ok := pc.namespaces.Get(namespace)
		if !ok || ns.Status.Phase == api.NamespaceTerminating {
			return workloop.Result{Idle: true}, nil
		}
		pc.tracer.Record("create", "configmaps/"+namespace+"/"+api.RootCAConfigMap, ns.ResourceVersion,
			"namespace %s has no ConfigMap %s: create it with the cluster's CA", namespace, api.RootCAConfigMap)
		_, err := client.For[api.ConfigMap](pc.client).Create(ctx, want)
		if apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err) {
			return workloop.Result{}, nil // the namespace went, or our cache lagged behind the ConfigMap
		}
		return workloop.Result{}, err
	}
	if maps.Equal(cm.Data, want.Data) && cm.Annotations[api.RootCADescriptionAnnotation] != "" {
		return workloop.Result{Idle: true}, nil
	}
	pc.tracer.Record("update", "configmaps/"+namespace+"/"+api.RootCAConfigMap, cm.ResourceVersion,
		"ConfigMap %s/%s no longer holds the cluster's CA: put it back", namespace, api.RootCAConfigMap)
	cm = api.DeepCopy(cm)
	cm.Data = want.Data
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	maps.Copy(cm.Annotations, want.Annotations)
	_, err := client.For[api.ConfigMap](pc.client).Update(ctx, cm)
	return workloop.Result{}, err
}

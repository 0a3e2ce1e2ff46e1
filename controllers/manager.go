// manager.go: kube-controller-manager, one replica of it. The binary is little more than a list:
// it opens one shared informer factory, builds every controller on it, and runs them all behind one
// leader election, so that of several replicas only one acts.
//
//	NewManager(c, clock, trace, name) (*Manager, error)
//	NewManagerWith(c, clock, trace, name, opts)   the same with kube-controller-manager's flags
//	m.Components()   the elector, then every controller gated on it, in the order of the list
//
// The order of the list is the order the step driver asks the controllers for work: the ones that
// create objects for others first, so that a learner reads the cascade top-down.
package controllers

import (
	"cmp"
	"slices"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/leaderelection"
	"kubesim/clock"
	"kubesim/controllers/daemonset"
	"kubesim/controllers/deployment"
	"kubesim/controllers/disruption"
	"kubesim/controllers/endpoints"
	"kubesim/controllers/endpointslice"
	"kubesim/controllers/garbagecollector"
	"kubesim/controllers/internal"
	"kubesim/controllers/namespace"
	"kubesim/controllers/nodeipam"
	"kubesim/controllers/nodelifecycle"
	"kubesim/controllers/persistentvolume"
	"kubesim/controllers/podgc"
	"kubesim/controllers/replicaset"
	"kubesim/controllers/resourcequota"
	"kubesim/controllers/rootcacertpublisher"
	"kubesim/controllers/serviceaccount"
	"kubesim/trace"
)

// Name is the binary's name, its default replica's identity in the election and the name of its
// Lease.
const Name = "kube-controller-manager"

// User is the identity every controller authenticates as (see internal.User).
const User = internal.User

// LeaseNamespace is where the replicas' Lease lives.
const LeaseNamespace = "kube-system"

// Manager is one kube-controller-manager replica.
type Manager struct {
	// Elector campaigns for the Lease kube-system/kube-controller-manager under the replica's name.
	Elector *leaderelection.LeaderElector
	// Informers is the replica's shared informer factory: one informer per resource, whatever
	// number of controllers read it.
	Informers *client.InformerFactory
	// Controllers, in the order the step driver asks them for work.
	Controllers []client.Component
}

// NewManager builds one replica named name ("kube-controller-manager", or
// "kube-controller-manager-2" for a second one). c must authenticate as User; the replica's
// informers, elector and controllers all talk through it, so a fault on c's link cuts off the whole
// replica, as a real network fault would.
func NewManager(c *client.Client, clk clock.Clock, tr *trace.Recorder, name string) (*Manager, error) {
	return NewManagerWith(c, clk, tr, name, Options{})
}

// Options are the kube-controller-manager flags kubesim takes; zero values take Kubernetes'
// defaults.
type Options struct {
	// NodeIPAM is --cluster-cidr and --node-cidr-mask-size.
	NodeIPAM nodeipam.Options
	// Identity is the holderIdentity the replica writes into its Lease; "" means its name.
	// Kubernetes uses "<hostname>_<uuid>".
	Identity string
	// RootCA is the cluster's CA certificate, PEM (--root-ca-file), which the root CA publisher puts
	// into every namespace as kube-root-ca.crt; nil leaves that controller out, as Kubernetes does
	// without a root CA.
	RootCA []byte
}

// NewManagerWith is NewManager with flags.
func NewManagerWith(c *client.Client, clk clock.Clock, tr *trace.Recorder, name string, o Options) (*Manager, error) {
	elector, err := leaderelection.NewLeaderElector(c, clk, tr, leaderelection.Config{
		Lock:   leaderelection.LeaseLock{Namespace: LeaseNamespace, Name: Name, Identity: cmp.Or(o.Identity, name)},
		Name:   name,
		Events: client.NewEventRecorder(c, Name, "", clk, tr),
	})
	if err != nil {
		return nil, err
	}
	f := client.NewInformerFactory(c, clk, tr)
	// The shared informers, made first so that they are pumped in this order in step mode: nodes
	// and namespaces, then owners before what they own (a Deployment reaches every controller's
	// cache before its ReplicaSets, a ReplicaSet before its pods), so a handler that looks up an
	// object's owner finds it.
	client.InformerFor[api.Node](f, client.FactoryOptions{})
	client.InformerFor[api.Lease](f, client.FactoryOptions{Namespace: api.NamespaceNodeLease})
	client.InformerFor[api.Namespace](f, client.FactoryOptions{})
	client.InformerFor[api.ServiceAccount](f, client.FactoryOptions{})
	client.InformerFor[api.Deployment](f, client.FactoryOptions{})
	client.InformerFor[api.DaemonSet](f, client.FactoryOptions{})
	client.InformerFor[api.ReplicaSet](f, client.FactoryOptions{})
	client.InformerFor[api.Pod](f, client.FactoryOptions{})
	client.InformerFor[api.Service](f, client.FactoryOptions{})
	client.InformerFor[api.Endpoints](f, client.FactoryOptions{})
	client.InformerFor[api.EndpointSlice](f, client.FactoryOptions{})

	events := func(source string) *client.EventRecorder { return client.NewEventRecorder(c, source, "", clk, tr) }
	ipam, err := nodeipam.New(c, f, clk, tr, events(nodeipam.Name), o.NodeIPAM)
	if err != nil {
		return nil, err
	}
	ctrls := []client.Component{
		ipam,
		resourcequota.New(c, f, clk, tr),
		deployment.New(c, f, clk, tr, events(deployment.Name)),
		replicaset.New(c, f, clk, tr, events(replicaset.Name)),
		daemonset.New(c, f, clk, tr, events(daemonset.Name)),
		serviceaccount.New(c, f, clk, tr),
		endpointslice.New(c, f, clk, tr),
		endpoints.New(c, f, clk, tr),
		namespace.New(c, f, clk, tr),
		garbagecollector.New(c, f, clk, tr),
		nodelifecycle.New(c, f, clk, tr, events(nodelifecycle.EventSource), nodelifecycle.Options{}),
		podgc.New(c, f, clk, tr, podgc.Options{}),
		disruption.New(c, f, clk, tr),
		persistentvolume.New(c, f, clk, tr, events(persistentvolume.EventSource)),
		persistentvolume.NewProvisioner(c, f, clk, tr, events),
	}
	if o.RootCA != nil {
		// Beside the serviceaccount controller: both make what a pod in a new namespace needs. Built
		// after the others, so that its ConfigMap informer comes last in the factory's order (the
		// order informers are pumped and relisted in step mode, which stories show).
		i := slices.IndexFunc(ctrls, func(c client.Component) bool { return c.Name() == serviceaccount.Name })
		ctrls = slices.Insert(ctrls, i+1, client.Component(rootcacertpublisher.New(c, f, clk, tr, o.RootCA)))
	}
	return &Manager{Elector: elector, Informers: f, Controllers: ctrls}, nil
}

// Components are what the replica runs: first the replica itself, its elector reading every shared
// informer (so that they are synced, and pumped in step mode, in the factory's order before any
// controller starts), then each controller, working only while the elector leads
// (leaderelection.Gated). Whoever runs them syncs and runs each shared informer once.
func (m *Manager) Components() []client.Component {
	out := []client.Component{replica{m.Elector, m.Informers}}
	for _, ctrl := range m.Controllers {
		out = append(out, leaderelection.Gated(m.Elector, ctrl))
	}
	return out
}

// replica is the elector as the component that owns the replica's shared informers.
type replica struct {
	*leaderelection.LeaderElector
	informers *client.InformerFactory
}

func (r replica) Informers() []client.InformerHandle { return r.informers.Informers() }

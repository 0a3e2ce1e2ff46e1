// proxy.go: kube-proxy, the component (cmd/kube-proxy and pkg/proxy/iptables.Proxier's sync loop).
//
//	New(Options) *Proxy
//	Name, Informers, Step, Run   the component contract (client.Component)
//	Rules()                      the rules of the last sync
//	Identity                     the user kube-proxy authenticates as
//
// Every change to a Service or an EndpointSlice marks the rules as stale; one sync (Step) rebuilds
// them from the informers' caches, as syncProxyRules rewrites the whole table with iptables-restore.
package kubeproxy

import (
	"context"
	"sync"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/trace"
)

// Identity is kube-proxy's user: kubeadm runs it as the ServiceAccount kube-system/kube-proxy, bound
// to the ClusterRole system:node-proxier.
const Identity = "system:serviceaccount:kube-system:kube-proxy"

// Groups are the groups of that ServiceAccount.
var Groups = []string{"system:serviceaccounts", "system:serviceaccounts:kube-system"}

// DefaultClusterCIDR is kube-proxy's --cluster-cidr when none is given: the pod network.
const DefaultClusterCIDR = "10.244.0.0/16"

// Options build one node's kube-proxy.
type Options struct {
	NodeName string
	// Client must authenticate as Identity.
	Client *client.Client
	Clock  clock.Clock
	Trace  *trace.Recorder
	// ClusterCIDR is --cluster-cidr: connections to a cluster IP from outside it are masqueraded.
	ClusterCIDR string
}

// Proxy is one node's kube-proxy.
type Proxy struct {
	node        string
	clusterCIDR string
	trace       *trace.Recorder
	services    *client.Informer[api.Service, *api.Service]
	slices      *client.Informer[api.EndpointSlice, *api.EndpointSlice]
	wake        chan struct{}

	mu sync.Mutex
	// mu guards stale and rules: stale is set by every informer event and cleared by a sync; rules
	// are what the last sync built.
	stale bool
	rules *Rules
}

// New builds a node's kube-proxy.
func New(o Options) *Proxy {
	if o.ClusterCIDR == "" {
		o.ClusterCIDR = DefaultClusterCIDR
	}
	p := &Proxy{node: o.NodeName, clusterCIDR: o.ClusterCIDR, trace: o.Trace, wake: make(chan struct{}, 1),
		rules: &Rules{Node: o.NodeName, ClusterCIDR: o.ClusterCIDR}}
	p.services = client.NewInformer[api.Service](o.Client, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: p.Name() + " services"})
	p.slices = client.NewInformer[api.EndpointSlice](o.Client, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: p.Name() + " endpointslices"})
	p.services.AddHandler(client.Handler[*api.Service]{
		OnAdd: func(*api.Service) { p.markStale() }, OnUpdate: func(_, _ *api.Service) { p.markStale() }, OnDelete: func(*api.Service) { p.markStale() },
	})
	p.slices.AddHandler(client.Handler[*api.EndpointSlice]{
		OnAdd: func(*api.EndpointSlice) { p.markStale() }, OnUpdate: func(_, _ *api.EndpointSlice) { p.markStale() }, OnDelete: func(*api.EndpointSlice) { p.markStale() },
	})
	return p
}

func (p *Proxy) markStale() {
	p.mu.Lock()
	p.stale = true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Name is how the trace names this kube-proxy: "kube-proxy/node-1".
func (p *Proxy) Name() string { return "kube-proxy/" + p.node }

// Informers are the Service and EndpointSlice informers.
func (p *Proxy) Informers() []client.InformerHandle {
	return []client.InformerHandle{p.services, p.slices}
}

// Step syncs the rules if they are stale.
func (p *Proxy) Step(context.Context) (bool, error) {
	p.mu.Lock()
	stale := p.stale
	p.stale = false
	p.mu.Unlock()
	if !stale {
		return false, nil
	}
	p.sync()
	return true, nil
}

// Run syncs whenever the rules go stale, until ctx ends.
func (p *Proxy) Run(ctx context.Context) {
	for {
		if ok, _ := p.Step(ctx); ok {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
	}
}

// sync rebuilds the rules (syncProxyRules).
func (p *Proxy) sync() {
	r := Build(p.node, p.clusterCIDR, p.services.List(), p.slices.List())
	p.mu.Lock()
	p.rules = r
	p.mu.Unlock()
	endpoints, rejected := 0, 0
	for _, sp := range r.Ports {
		endpoints += len(sp.Endpoints)
		if len(sp.Endpoints) == 0 {
			rejected++
		}
	}
	p.trace.Record(trace.Event{Component: p.Name(), Actor: Identity, Action: "sync", Detail: true}.
		Msgf("syncProxyRules: %d service ports, %d endpoints, %d ports without endpoints (REJECT)", len(r.Ports), endpoints, rejected))
}

// Rules returns the rules of the last sync. They are shared: never modify them.
func (p *Proxy) Rules() *Rules {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rules
}

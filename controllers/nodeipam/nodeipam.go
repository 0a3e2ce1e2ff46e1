// nodeipam.go: the node IPAM controller component (the RangeAllocator).
//
//	New(c, informers, clk, tr, recorder, opts) (*Controller, error)
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, node)         give the Node a podCIDR if it has none
//
// The Node informer's handlers keep the CIDRSet true to what the Nodes hold (occupy on add and
// update, release on delete); Reconcile only allocates.
package nodeipam

import (
	"context"
	"net/netip"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how the trace names the controller (--controllers=nodeipam).
const Name = "node-ipam-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// Defaults of the flags below, as a kubeadm cluster with Flannel has them.
const (
	DefaultClusterCIDR      = "10.244.0.0/16"
	DefaultNodeCIDRMaskSize = 24
)

// Options are kube-controller-manager's flags for node IPAM; zero values take the defaults.
type Options struct {
	ClusterCIDR      string // --cluster-cidr
	NodeCIDRMaskSize int    // --node-cidr-mask-size
}

// Controller assigns podCIDRs to Nodes.
type Controller struct {
	workloop.Component // Name, Informers, Step, Run

	client   *client.Client
	tracer   internal.Tracer
	recorder *client.EventRecorder
	nodes    *client.Informer[api.Node, *api.Node]
	cidrs    *CIDRSet
	queue    *workqueue.Queue[string]
}

// New builds the controller on the shared factory's Node informer. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, rec *client.EventRecorder, o Options) (*Controller, error) {
	if o.ClusterCIDR == "" {
		o.ClusterCIDR = DefaultClusterCIDR
	}
	if o.NodeCIDRMaskSize == 0 {
		o.NodeCIDRMaskSize = DefaultNodeCIDRMaskSize
	}
	cidrs, err := NewCIDRSet(o.ClusterCIDR, o.NodeCIDRMaskSize)
	if err != nil {
		return nil, err
	}
	nc := &Controller{client: c, tracer: internal.Tracer{Component: Name, Recorder: tr}, recorder: rec, cidrs: cidrs,
		nodes: client.InformerFor[api.Node](informers, client.FactoryOptions{}),
		queue: workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	nc.Component = workloop.NewComponent(&workloop.Loop{Queue: nc.queue, Reconcile: nc.Reconcile, Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "nodes"}, nc.nodes)
	nc.nodes.AddHandler(client.Handler[*api.Node]{
		OnAdd:    nc.observe,
		OnUpdate: func(_, n *api.Node) { nc.observe(n) },
		OnDelete: func(n *api.Node) {
			if p, ok := podCIDR(n); ok {
				nc.cidrs.Release(p)
			}
		},
	})
	return nc, nil
}

// observe occupies a Node's range, or queues a Node that has none.
func (nc *Controller) observe(n *api.Node) {
	if p, ok := podCIDR(n); ok {
		// A range outside the cluster CIDR (set by hand, or by another allocator) is not ours to track.
		_ = nc.cidrs.Occupy(p)
		return
	}
	nc.queue.Add(n.Name)
}

func podCIDR(n *api.Node) (netip.Prefix, bool) {
	p, err := netip.ParsePrefix(n.Spec.PodCIDR)
	return p, err == nil
}

// Reconcile gives the Node a podCIDR if it still has none.
func (nc *Controller) Reconcile(ctx context.Context, name string) (workloop.Result, error) {
	cached, ok := nc.nodes.Get(name)
	if !ok || cached.Spec.PodCIDR != "" {
		return workloop.Result{Idle: true}, nil
	}
	p, err := nc.cidrs.AllocateNext()
	if err != nil {
		nc.recorder.Eventf(ctx, cached, api.EventTypeNormal, "CIDRNotAvailable", "Node %s status is now: CIDRNotAvailable", name)
		return workloop.Result{}, err
	}
	node := api.DeepCopy(cached) // never modify the cache's copy
	node.Spec.PodCIDR, node.Spec.PodCIDRs = p.String(), []string{p.String()}
	nc.tracer.Record("allocate", "nodes/"+name, cached.ResourceVersion,
		"node %s has no podCIDR: assign %s (cluster CIDR %s)", name, p, nc.cidrs)
	if _, err := client.For[api.Node](nc.client).Update(ctx, node); err != nil {
		nc.cidrs.Release(p)
		return workloop.Result{}, err
	}
	return workloop.Result{}, nil
}

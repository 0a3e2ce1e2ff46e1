// nettrace.go: the cluster's networking as a learner inspects it: a node's kube-proxy rules, and
// reachability traces from a pod (package nettrace) over the objects the apiserver holds now.
//
//	(*Cluster).ProxyRules(node)           the node's kube-proxy rules (iptables-save with .IptablesSave())
//	(*Cluster).NetTrace(ctx, from, to)    trace from pod "from" to "NAME:PORT"
package sim

import (
	"context"
	"fmt"

	"kubesim/api"
	"kubesim/client"
	"kubesim/kubeproxy"
	"kubesim/nettrace"
)

// ProxyRules returns the rules kube-proxy last synced on a node.
func (c *Cluster) ProxyRules(node string) (*kubeproxy.Rules, bool) {
	n, ok := c.nodes[node]
	if !ok || n.Proxy == nil {
		return nil, false
	}
	return n.Proxy.Rules(), true
}

// NetTrace traces a connection from a pod ("ns/name" or "name" in default) to "NAME:PORT", reading
// the cluster's objects as the admin.
func (c *Cluster) NetTrace(ctx context.Context, from, to string) (nettrace.Result, error) {
	cl := c.Kubectl.Client().Quiet() // reading, as kubectl get would, without telling each request
	pods, _, err := client.For[api.Pod](cl).List(ctx, "", client.ListOptions{})
	if err != nil {
		return nettrace.Result{}, fmt.Errorf("listing pods: %w", err)
	}
	services, _, err := client.For[api.Service](cl).List(ctx, "", client.ListOptions{})
	if err != nil {
		return nettrace.Result{}, fmt.Errorf("listing services: %w", err)
	}
	nodes, _, err := client.For[api.Node](cl).List(ctx, "", client.ListOptions{})
	if err != nil {
		return nettrace.Result{}, fmt.Errorf("listing nodes: %w", err)
	}
	return nettrace.Trace(nettrace.Input{Pods: pods, Services: services, Nodes: nodes, DNS: c.DNS, Rules: c.ProxyRules}, from, to), nil
}

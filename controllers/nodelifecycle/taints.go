// taints.go: which taints a node should carry, and writing them.
//
//	processTaintBaseEviction   NoExecute, from the monitor pass: queue, swap or remove
//	doNoExecuteTaintingPass    NoExecute: taint one queued node, if its zone's rate allows
//	markNodeAsReachable        NoExecute: a Ready node loses both taints
//	doNoScheduleTaintingPass   NoSchedule: follow the node's conditions and spec.unschedulable
//
// NoExecute taints (not-ready, unreachable) evict running pods, so adding them is rate-limited per
// zone; NoSchedule taints only keep new pods away, so they follow the conditions at once.
package nodelifecycle

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"kubesim/api"
	"kubesim/client"
)

func nodesClient(c *client.Client) client.Resource[api.Node, *api.Node] {
	return client.For[api.Node](c)
}
func podsClient(c *client.Client) client.Resource[api.Pod, *api.Pod] { return client.For[api.Pod](c) }

// The NoExecute taints the controller manages, and the Ready status each stands for.
var (
	notReadyTaint    = api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}
	unreachableTaint = api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
)

// noScheduleTaintFor maps a node condition and its status to the NoSchedule taint it calls for
// (Kubernetes' nodeConditionToTaintKeyStatusMap).
var noScheduleTaintFor = map[api.NodeConditionType]map[api.ConditionStatus]string{
	api.NodeReady:              {api.ConditionFalse: api.TaintNodeNotReady, api.ConditionUnknown: api.TaintNodeUnreachable},
	api.NodeMemoryPressure:     {api.ConditionTrue: api.TaintNodeMemoryPressure},
	api.NodeDiskPressure:       {api.ConditionTrue: api.TaintNodeDiskPressure},
	api.NodeNetworkUnavailable: {api.ConditionTrue: api.TaintNodeNetworkUnavailable},
	api.NodePIDPressure:        {api.ConditionTrue: api.TaintNodePIDPressure},
}

// managedNoSchedule are the NoSchedule taint keys the controller owns.
var managedNoSchedule = map[string]bool{
	api.TaintNodeNotReady: true, api.TaintNodeUnreachable: true, api.TaintNodeMemoryPressure: true,
	api.TaintNodeDiskPressure: true, api.TaintNodeNetworkUnavailable: true, api.TaintNodePIDPressure: true,
	api.TaintNodeUnschedulable: true,
}

// processTaintBaseEviction brings a node's NoExecute taint in line with its Ready condition as
// observed: False wants not-ready, Unknown wants unreachable, True wants neither. Swapping one for
// the other happens at once; a new taint waits in the zone's queue.
func (nc *Controller) processTaintBaseEviction(ctx context.Context, node *api.Node, observed api.NodeCondition) bool {
	switch observed.Status {
	case api.ConditionFalse:
		if hasTaint(node, unreachableTaint) {
			return nc.swapTaint(ctx, node, notReadyTaint, unreachableTaint)
		}
		if !hasTaint(node, notReadyTaint) {
			return nc.markNodeForTainting(node, notReadyTaint)
		}
	case api.ConditionUnknown:
		if hasTaint(node, notReadyTaint) {
			return nc.swapTaint(ctx, node, unreachableTaint, notReadyTaint)
		}
		if !hasTaint(node, unreachableTaint) {
			return nc.markNodeForTainting(node, unreachableTaint)
		}
	case api.ConditionTrue:
		return nc.markNodeAsReachable(ctx, node)
	}
	return false
}

// markNodeForTainting puts the node in its zone's queue; it reports whether it was not there yet.
func (nc *Controller) markNodeForTainting(node *api.Node, taint api.Taint) bool {
	zone := zoneOf(node)
	nc.mu.Lock()
	tq := nc.tainterLocked(zone)
	added := tq.add(node.Name)
	rate := tq.limiter.qps
	nc.mu.Unlock()
	if added {
		nc.tracer.Record("queue", nodePath(node.Name), node.ResourceVersion,
			"node %s is not Ready: queue it for the taint %s (zone %q, %g nodes/s)", node.Name, taint.ToString(), zone, rate)
	}
	return added
}

// markNodeAsReachable removes both NoExecute taints from a node that is Ready again, and takes it
// out of its zone's queue.
func (nc *Controller) markNodeAsReachable(ctx context.Context, node *api.Node) bool {
	nc.mu.Lock()
	if tq, ok := nc.tainters[zoneOf(node)]; ok {
		tq.remove(node.Name)
	}
	nc.mu.Unlock()
	if !hasTaint(node, notReadyTaint) && !hasTaint(node, unreachableTaint) {
		return false
	}
	nc.tracer.Record("untaint", nodePath(node.Name), node.ResourceVersion,
		"node %s is Ready again: remove its NoExecute taints", node.Name)
	return nc.updateTaints(ctx, node.Name, nil, []api.Taint{notReadyTaint, unreachableTaint})
}

func (nc *Controller) swapTaint(ctx context.Context, node *api.Node, add, remove api.Taint) bool {
	nc.tracer.Record("taint", nodePath(node.Name), node.ResourceVersion,
		"node %s: replace taint %s with %s", node.Name, remove.ToString(), add.ToString())
	return nc.updateTaints(ctx, node.Name, []api.Taint{add}, []api.Taint{remove})
}

// doNoExecuteTaintingPass taints one queued node whose zone has a token, and reports whether it
// did. When queued nodes wait for tokens, it arms a timer for the earliest.
func (nc *Controller) doNoExecuteTaintingPass(ctx context.Context) bool {
	for {
		now := nc.clock.Now()
		nc.mu.Lock()
		name, zone, rate := "", "", 0.0
		var wait []float64
		for _, z := range sortedKeys(nc.tainters) {
			tq := nc.tainters[z]
			if len(tq.queue) == 0 {
				continue
			}
			if !tq.limiter.tryAccept(now) {
				if d, ok := tq.limiter.untilToken(now); ok {
					wait = append(wait, d.Seconds())
				}
				continue
			}
			name, zone, rate = tq.pop(), z, tq.limiter.qps
			break
		}
		if name == "" {
			if len(wait) > 0 {
				sort.Float64s(wait)
				nc.armTokenTimerLocked(now, wait[0])
			}
			nc.mu.Unlock()
			return false
		}
		nc.mu.Unlock()

		node, ok := nc.nodes.Get(name)
		if !ok {
			continue
		}
		var add, remove api.Taint
		ready := api.GetNodeCondition(&node.Status, api.NodeReady)
		switch {
		case ready != nil && ready.Status == api.ConditionFalse:
			add, remove = notReadyTaint, unreachableTaint
		case ready == nil || ready.Status == api.ConditionUnknown:
			add, remove = unreachableTaint, notReadyTaint
		default:
			continue // ready again while it waited: "Ignoring taint request"
		}
		status := api.ConditionUnknown
		if ready != nil {
			status = ready.Status
		}
		nc.tracer.Record("taint", nodePath(name), node.ResourceVersion,
			"taint node %s with %s: Ready is %s (zone %q, %g nodes/s)", name, add.ToString(), status, zone, rate)
		return nc.updateTaints(ctx, name, []api.Taint{add}, []api.Taint{remove})
	}
}

// doNoScheduleTaintingPass makes the node's managed NoSchedule taints match its conditions and
// spec.unschedulable, and reports whether it changed them.
func (nc *Controller) doNoScheduleTaintingPass(ctx context.Context, name string) bool {
	node, ok := nc.nodes.Get(name)
	if !ok {
		return false
	}
	want := map[string]bool{}
	for _, c := range node.Status.Conditions {
		if key, ok := noScheduleTaintFor[c.Type][c.Status]; ok {
			want[key] = true
		}
	}
	if node.Spec.Unschedulable {
		want[api.TaintNodeUnschedulable] = true
	}
	have := map[string]bool{}
	for _, t := range node.Spec.Taints {
		if t.Effect == api.TaintEffectNoSchedule && managedNoSchedule[t.Key] {
			have[t.Key] = true
		}
	}
	var add, remove []api.Taint
	for _, k := range sortedKeys(want) {
		if !have[k] {
			add = append(add, api.Taint{Key: k, Effect: api.TaintEffectNoSchedule})
		}
	}
	for _, k := range sortedKeys(have) {
		if !want[k] {
			remove = append(remove, api.Taint{Key: k, Effect: api.TaintEffectNoSchedule})
		}
	}
	if len(add) == 0 && len(remove) == 0 {
		return false
	}
	nc.tracer.Record("taint", nodePath(name), node.ResourceVersion,
		"node %s: NoSchedule taints follow its conditions: add %s, remove %s", name, taintList(add), taintList(remove))
	return nc.updateTaints(ctx, name, add, remove)
}

// updateTaints adds and removes taints (matched by key and effect) on the live node, retrying on
// conflict. NoExecute taints get timeAdded, from which tolerationSeconds count.
func (nc *Controller) updateTaints(ctx context.Context, name string, add, remove []api.Taint) bool {
	nodes := nodesClient(nc.client)
	err := client.RetryOnConflict(ctx, nc.clock, client.DefaultRetry, func() error {
		node, err := nodes.Get(ctx, "", name)
		if err != nil {
			return err
		}
		var taints []api.Taint
		for _, t := range node.Spec.Taints {
			if !containsTaint(remove, t) && !containsTaint(add, t) {
				taints = append(taints, t)
			}
		}
		for _, t := range add {
			if t.Effect == api.TaintEffectNoExecute {
				t.TimeAdded = api.Ptr(api.NewTime(nc.clock.Now()))
			}
			taints = append(taints, t)
		}
		node.Spec.Taints = taints
		_, err = nodes.Update(ctx, node)
		return err
	})
	if err != nil {
		nc.tracer.Record("error", nodePath(name), "", "could not update the taints of node %s: %v", name, err)
		return false
	}
	return true
}

func hasTaint(n *api.Node, t api.Taint) bool { return containsTaint(n.Spec.Taints, t) }

func containsTaint(ts []api.Taint, t api.Taint) bool {
	for _, x := range ts {
		if x.Key == t.Key && x.Effect == t.Effect {
			return true
		}
	}
	return false
}

// noExecuteTaints are the node's NoExecute taints: the ones that evict running pods.
func noExecuteTaints(n *api.Node) []api.Taint {
	var out []api.Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == api.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

func sameTaints(a, b []api.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for _, t := range a {
		if !containsTaint(b, t) {
			return false
		}
	}
	return true
}

func taintList(ts []api.Taint) string {
	if len(ts) == 0 {
		return "none"
	}
	list := make([]string, len(ts))
	for i, t := range ts {
		list[i] = t.ToString()
	}
	return strings.Join(list, ", ")
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

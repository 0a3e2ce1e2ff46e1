// health.go: the monitor pass (monitorNodeHealth), every NodeMonitorPeriod. For each node:
//
//	a node seen for the first time: event RegisteredNode "Registered Node <name> in Controller"
//	tryUpdateNodeHealth      did it show a sign of life within the grace period? If not, set its
//	                         conditions to Unknown (and tell: event NodeNotReady, pods not Ready)
//	processTaintBaseEviction queue it for, swap or remove its NoExecute taint (taints.go)
//
// and then, from every node's Ready condition, each zone's state (handleDisruption, zones.go).
package nodelifecycle

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/client"
)

// Kubernetes' reasons and messages for conditions the controller sets to Unknown.
const (
	reasonNodeStatusUnknown      = "NodeStatusUnknown"
	messageNodeStatusUnknown     = "Kubelet stopped posting node status."
	reasonNodeStatusNeverUpdated = "NodeStatusNeverUpdated"
	messageNodeNeverUpdated      = "Kubelet never posted node status."
)

// The conditions a kubelet posts, which all become Unknown when it goes silent.
var monitoredConditions = []api.NodeConditionType{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure}

// nodeHealth is what the controller remembers about a node between passes.
type nodeHealth struct {
	probeTimestamp time.Time // the last sign of life, on the controller's clock
	leaseRenew     time.Time // the Lease's renewTime as last seen
	heartbeat      time.Time // the Ready condition's lastHeartbeatTime as last seen
}

// monitorNodeHealth is one pass over every node. It reports whether it changed anything.
func (nc *Controller) monitorNodeHealth(ctx context.Context) bool {
	now := nc.clock.Now()
	nodes := nc.nodes.List()
	did := false
	zoneConditions := map[string][]*api.NodeCondition{}
	seen := map[string]bool{}
	for _, node := range nodes {
		seen[node.Name] = true
		nc.mu.Lock()
		_, known := nc.health[node.Name]
		nc.mu.Unlock()
		if !known {
			// A node the controller has not seen before (its knownNodeSet in Kubernetes).
			nc.events.Eventf(ctx, node, api.EventTypeNormal, "RegisteredNode", "Registered Node %s in Controller", node.Name)
		}
		observed, current, updated := nc.tryUpdateNodeHealth(ctx, node, now)
		if updated != nil {
			did = true
			node = updated
			if observed.Status == api.ConditionTrue {
				nc.events.Eventf(ctx, node, api.EventTypeNormal, "NodeNotReady", "Node %s status is now: %s", node.Name, "NodeNotReady")
				nc.markPodsNotReady(ctx, node.Name)
			}
		}
		zone := zoneOf(node)
		zoneConditions[zone] = append(zoneConditions[zone], current)
		if current != nil {
			// As Kubernetes does, the taint follows the condition as it was before this pass
			// changed it: a node found silent now is tainted at the next pass.
			did = nc.processTaintBaseEviction(ctx, node, observed) || did
		}
	}
	nc.mu.Lock()
	for name := range nc.health {
		if !seen[name] {
			delete(nc.health, name)
		}
	}
	nc.mu.Unlock()
	return nc.handleDisruption(ctx, zoneConditions, nodes) || did
}

// tryUpdateNodeHealth notes any sign of life, and sets the node's conditions to Unknown if there
// was none for the grace period. It returns the Ready condition as observed before, as it is now
// (nil if the node never posted one and is still within its startup grace period), and the node as
// written, if it wrote.
func (nc *Controller) tryUpdateNodeHealth(ctx context.Context, node *api.Node, now time.Time) (api.NodeCondition, *api.NodeCondition, *api.Node) {
	ready := api.GetNodeCondition(&node.Status, api.NodeReady)
	grace := nc.opts.NodeMonitorGracePeriod
	var observed api.NodeCondition

	nc.mu.Lock()
	h := nc.health[node.Name]
	if ready == nil {
		observed = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionUnknown}
		grace = nc.opts.NodeStartupGracePeriod
		if h == nil {
			h = &nodeHealth{probeTimestamp: node.CreationTimestamp.Time}
		}
	} else {
		observed = *ready
		switch {
		case h == nil:
			h = &nodeHealth{probeTimestamp: now, heartbeat: ready.LastHeartbeatTime.Time}
		case !ready.LastHeartbeatTime.Equal(h.heartbeat):
			h.heartbeat, h.probeTimestamp = ready.LastHeartbeatTime.Time, now
		}
	}
	if lease, ok := nc.leases.Get(api.NamespaceNodeLease + "/" + node.Name); ok && lease.Spec.RenewTime != nil &&
		lease.Spec.RenewTime.After(h.leaseRenew) {
		h.leaseRenew, h.probeTimestamp = lease.Spec.RenewTime.Time, now
	}
	nc.health[node.Name] = h
	silent := now.Sub(h.probeTimestamp)
	nc.mu.Unlock()

	if silent <= grace {
		return observed, ready, nil
	}
	updated := api.DeepCopy(node)
	changed := false
	for _, t := range monitoredConditions {
		c := api.GetNodeCondition(&updated.Status, t)
		switch {
		case c == nil:
			updated.Status.Conditions = append(updated.Status.Conditions, api.NodeCondition{Type: t, Status: api.ConditionUnknown,
				Reason: reasonNodeStatusNeverUpdated, Message: messageNodeNeverUpdated,
				LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: api.NewTime(now)})
			changed = true
		case c.Status != api.ConditionUnknown:
			c.Status, c.Reason, c.Message, c.LastTransitionTime = api.ConditionUnknown, reasonNodeStatusUnknown, messageNodeStatusUnknown, api.NewTime(now)
			changed = true
		}
	}
	current := api.GetNodeCondition(&updated.Status, api.NodeReady)
	if !changed {
		return observed, current, nil
	}
	why := messageNodeStatusUnknown
	if ready == nil {
		why = messageNodeNeverUpdated
	}
	nc.tracer.Record("update", nodePath(node.Name), node.ResourceVersion,
		"node %s: no Lease renewal or status for %s (grace period %s): set Ready and the other conditions to Unknown (%s)",
		node.Name, silent, grace, why)
	written, err := nodesClient(nc.client).UpdateStatus(ctx, updated)
	if err != nil {
		nc.tracer.Record("error", nodePath(node.Name), "",
			"could not update status of node %s: %v (retry at the next pass)", node.Name, err)
		return observed, ready, nil
	}
	return observed, api.GetNodeCondition(&written.Status, api.NodeReady), written
}

// markPodsNotReady sets Ready=False on every pod of the node that still claims to be Ready
// (MarkPodsNotReady): endpoints stop sending traffic to pods nobody can vouch for.
func (nc *Controller) markPodsNotReady(ctx context.Context, node string) {
	now := api.NewTime(nc.clock.Now())
	for _, p := range nc.pods.ByIndex(client.IndexNodeName, node) {
		c := api.GetPodCondition(p, api.PodReady)
		if c == nil || c.Status != api.ConditionTrue {
			continue
		}
		cp := api.DeepCopy(p)
		c = api.GetPodCondition(cp, api.PodReady)
		c.Status, c.LastTransitionTime = api.ConditionFalse, now
		nc.tracer.Record("update", podPath(p.Namespace, p.Name), p.ResourceVersion,
			"pod %s/%s runs on node %s, which stopped reporting: set its Ready condition to False", p.Namespace, p.Name, node)
		if _, err := podsClient(nc.client).UpdateStatus(ctx, cp); err != nil {
			nc.tracer.Record("error", podPath(p.Namespace, p.Name), "",
				"could not mark pod %s/%s not Ready: %v", p.Namespace, p.Name, err)
		}
	}
}

// Package nodelifecycle is the node lifecycle controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/nodelifecycle) together with its NoExecute taint manager
// (pkg/controller/tainteviction, which Kubernetes runs as its own "taint-eviction-controller" since
// 1.29). It notices dead nodes and moves their pods away.
//
// Read next: nodelifecycle.go (the component: informers, queues, timers), health.go (the monitor
// pass), taints.go (which taints a node should carry), zones.go (zone states and eviction rate
// limits), taintmanager.go (taint-based eviction), then Kubernetes' "Nodes" concept page (sections
// "Node heartbeats" and "Rate limits on eviction") and "Taints and Tolerations" (taint based
// evictions).
//
// The story of a node that dies, with Kubernetes' defaults:
//
//  1. A kubelet heartbeats by renewing its Lease in kube-node-lease every 10 s, and by posting node
//     status when something changes. Every --node-monitor-period (5 s) the controller looks at every
//     node; when it saw the Lease (or the Ready condition's heartbeat) change, that is the node's
//     last sign of life, on the controller's own clock.
//  2. After --node-monitor-grace-period without a sign of life (50 s since Kubernetes 1.32; it was
//     40 s before), the controller sets Ready and the other conditions to Unknown, reason
//     NodeStatusUnknown, message "Kubelet stopped posting node status.", records the event
//     NodeNotReady ("Node node-2 status is now: NodeNotReady"), and marks the node's pods not Ready.
//  3. At its next pass it queues the node for the taint node.kubernetes.io/unreachable:NoExecute
//     (not-ready:NoExecute when the kubelet itself reported Ready=False). Taints are added at a
//     limited rate per zone: --node-eviction-rate 0.1 nodes/s normally, --secondary-node-eviction-rate
//     0.01/s in a zone where at least --unhealthy-zone-threshold (55 %) of nodes are not Ready (0 in
//     clusters up to --large-cluster-size-threshold, 50 nodes). If every node of every zone is not
//     Ready the controller assumes the problem is its own (a network partition of the control plane)
//     and stops tainting altogether: "master disruption mode".
//  4. The taint manager sees the NoExecute taint. A pod that does not tolerate it is deleted at once;
//     one that tolerates it for tolerationSeconds (300 s, added to every pod by the
//     DefaultTolerationSeconds admission plugin) is deleted when that time has passed: event
//     TaintManagerEviction "Marking for deletion Pod default/x". Its ReplicaSet then creates a
//     replacement, which the scheduler places elsewhere.
//  5. When the kubelet comes back and posts Ready=True, the controller removes the taints at its next
//     pass; pods whose deletion was still pending stay.
//
// It also keeps the NoSchedule taints in step with the node's conditions (not-ready, unreachable,
// memory-pressure, disk-pressure, pid-pressure, network-unavailable) and with spec.unschedulable
// (kubectl cordon): node.kubernetes.io/unschedulable:NoSchedule.
//
// What it simplifies: zones are the topology.kubernetes.io/zone label alone (Kubernetes joins region
// and zone); nodes are never excluded from disruption checks; the NoExecute tainter runs when a token
// is available instead of polling every 100 ms; the events and trace lines are the controller's, the
// taint manager's eviction events come from the same recorder.
package nodelifecycle

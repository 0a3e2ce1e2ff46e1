// Package framework is the scheduling framework (k8s.io/kube-scheduler/framework and
// pkg/scheduler/framework/runtime): the plugin interfaces, one per extension point, the Status every
// plugin returns, the per-cycle CycleState, the NodeInfo summary of a node, the Snapshot a cycle
// works on, the FitError with Kubernetes' "0/N nodes are available" message, and the Framework that
// runs a profile's plugins. A NodeInfo also counts its pods by class (namespace, labels,
// terminating), so that how many of them a selector picks is a sum of a few counts, and a Snapshot
// keeps such sums per topology domain (podcounts.go): the questions spreading and pod affinity ask
// every node in every cycle.
//
// Read next: interface.go (the extension points in the order they run), status.go, framework.go
// (how each point is run), then any plugin in ../plugins.
//
// Writing a plugin: a type with Name() and the interface of each point it takes part in; a factory
// func(Handle) (Plugin, error) registered under its name in a Registry; a profile that lists the
// name. Return nil for success, NewStatus(Unschedulable, reason) to reject a node (the reason is
// what users will read, counted per node), UnschedulableAndUnresolvable when preemption could not
// help, Skip from PreFilter/PreScore when the plugin has nothing to do for this pod. Filter and
// Score must only read: they run in parallel over nodes.
//
// Glossary: feasible node: one that passed every filter. Assumed pod: one the cache counts on a node
// before its binding is confirmed. Nominated node: where preemption made room for a pod.
//
// Simplified: no Permit, PreBind, PostBind or PreEnqueue points; QueueSort is a Less function;
// plugins take no arguments.
package framework

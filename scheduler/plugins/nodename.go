// nodename.go: the NodeName plugin. A pod that names a node in spec.nodeName fits only that node.
// (A pod created with nodeName set skips the scheduler entirely; this filter matters for pods that
// reach the scheduler some other way, and for Explain.)
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// NodeNameName is the plugin's name.
const NodeNameName = "NodeName"

// ErrReasonNodeName is the plugin's rejection.
const ErrReasonNodeName = "node(s) didn't match the requested node name"

// NodeName filters on spec.nodeName.
type NodeName struct{}

var (
	_ framework.FilterPlugin      = NodeName{}
	_ framework.EnqueueExtensions = NodeName{}
)

// NewNodeName is the plugin's factory.
func NewNodeName(framework.Handle) (framework.Plugin, error) { return NodeName{}, nil }

// Name returns NodeNameName.
func (NodeName) Name() string { return NodeNameName }

// EventsToRegister: only a new node can be the one the pod names.
func (NodeName) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{framework.EventNodeAdd}
}

// Filter passes the named node only.
func (NodeName) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if pod.Spec.NodeName == "" || pod.Spec.NodeName == ni.Name() {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeName)
}

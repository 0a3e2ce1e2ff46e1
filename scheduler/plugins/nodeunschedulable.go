// nodeunschedulable.go: the NodeUnschedulable plugin. A cordoned node (spec.unschedulable, set by
// kubectl cordon) takes no new pods, unless the pod tolerates the node.kubernetes.io/unschedulable
// taint, as DaemonSet pods do.
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// NodeUnschedulableName is the plugin's name.
const NodeUnschedulableName = "NodeUnschedulable"

// ErrReasonUnschedulable is the plugin's rejection.
const ErrReasonUnschedulable = "node(s) were unschedulable"

// NodeUnschedulable filters cordoned nodes.
type NodeUnschedulable struct{}

var (
	_ framework.FilterPlugin      = NodeUnschedulable{}
	_ framework.EnqueueExtensions = NodeUnschedulable{}
)

// NewNodeUnschedulable is the plugin's factory.
func NewNodeUnschedulable(framework.Handle) (framework.Plugin, error) {
	return NodeUnschedulable{}, nil
}

// Name returns NodeUnschedulableName.
func (NodeUnschedulable) Name() string { return NodeUnschedulableName }

// EventsToRegister: an uncordon (which the scheduler sees as a taint change) or a new node.
func (NodeUnschedulable) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}}
}

// Filter rejects a cordoned node unless the pod tolerates it.
func (NodeUnschedulable) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if !ni.Unschedulable() {
		return nil
	}
	taint := api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}
	if api.TolerationsTolerateTaint(pod.Spec.Tolerations, &taint) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)
}

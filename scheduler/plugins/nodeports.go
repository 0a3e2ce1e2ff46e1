// nodeports.go: the NodePorts plugin. A container's hostPort claims that port on the node's
// addresses; two pods cannot claim the same port, protocol and address (0.0.0.0 means every address).
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// NodePortsName is the plugin's name.
const NodePortsName = "NodePorts"

// ErrReasonPorts is the plugin's rejection.
const ErrReasonPorts = "node(s) didn't have free ports for the requested pod ports"

const nodePortsPreFilterKey framework.StateKey = "PreFilter" + NodePortsName

// NodePorts filters on host ports.
type NodePorts struct{}

var (
	_ framework.PreFilterPlugin   = NodePorts{}
	_ framework.FilterPlugin      = NodePorts{}
	_ framework.EnqueueExtensions = NodePorts{}
)

// NewNodePorts is the plugin's factory.
func NewNodePorts(framework.Handle) (framework.Plugin, error) { return NodePorts{}, nil }

// Name returns NodePortsName.
func (NodePorts) Name() string { return NodePortsName }

// EventsToRegister: a pod deleted (its ports freed), or a new or changed node.
func (NodePorts) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{framework.EventAssignedPodDelete,
		{Resource: framework.Node, ActionType: framework.Add | framework.Update}}
}

type hostPorts []framework.HostPort

func (p hostPorts) Clone() framework.StateData { return p }

// PreFilter collects the pod's host ports, and skips the filter when there are none.
func (NodePorts) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	ports := framework.HostPorts(pod)
	if len(ports) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	state.Write(nodePortsPreFilterKey, hostPorts(ports))
	return nil, nil
}

// PreFilterExtensions is nil: the pod's own ports do not depend on other pods.
func (NodePorts) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter rejects a node where one of the ports is taken.
func (NodePorts) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	data, err := state.Read(nodePortsPreFilterKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	for _, p := range data.(hostPorts) {
		if ni.UsedPorts.Conflicts(p) {
			return framework.NewStatus(framework.Unschedulable, ErrReasonPorts)
		}
	}
	return nil
}

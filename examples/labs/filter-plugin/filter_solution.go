//go:build solution

// filter_solution.go: the reference solution, built with -tags solution.
package filterplugin

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// Filter rejects a node without disktype=ssd for a pod labelled disktype=ssd. The code is
// UnschedulableAndUnresolvable: preempting other pods cannot give a node a label.
func (DiskType) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if pod.Labels["disktype"] != "ssd" || ni.Node().Labels["disktype"] == "ssd" {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
}

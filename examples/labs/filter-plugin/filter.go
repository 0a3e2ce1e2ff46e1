//go:build !solution

// filter.go: the Filter extension point of the DiskType plugin. This is where you work.
package filterplugin

import (
	"context"

	"kubesim/api"
	"kubesim/lab"
	"kubesim/scheduler/framework"
)

// Filter says whether pod may run on the node of ni: nil (success) to let it, a Status with code
// framework.UnschedulableAndUnresolvable and the reason ErrReason to keep it off.
func (DiskType) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	// TODO(lab): if the pod's labels say disktype=ssd and the node's (ni.Node().Labels) do not,
	// return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason); otherwise nil.
	return framework.AsStatus(lab.TODO("write DiskType.Filter in examples/labs/filter-plugin/filter.go"))
}

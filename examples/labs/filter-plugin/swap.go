// swap.go: your plugin outside the grader. Started is what the grader asks first (has Filter been
// written?); Swap puts DiskType in any scenario, its story compared with the story without it:
//
//	go run ./examples/labs/swap filter-plugin node-selector-affinity
package filterplugin

import (
	"context"

	"kubesim/api"
	"kubesim/lab"
	"kubesim/scheduler/framework"
)

// Started is the TODO your Filter still answers, or nil once you have written it.
func Started() error {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "probe", Namespace: "default", Labels: map[string]string{"disktype": "ssd"}}}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-2"}}
	return lab.Unfinished(DiskType{}.Filter(context.Background(), framework.NewCycleState(), pod, framework.NewNodeInfo(node)).AsError())
}

// Swap is DiskType added to the default scheduler's profile.
func Swap() lab.Swap { return lab.WithSchedulerPlugin(Name, New, 0) }

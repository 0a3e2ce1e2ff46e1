// swap.go: your plugin outside the grader. Started is what the grader asks first (have Score and
// NormalizeScore been written?); Swap puts SpreadByApp in any scenario, its story compared with the
// story without it:
//
//	go run ./examples/labs/swap score-plugin create-deployment
package scoreplugin

import (
	"context"

	"kubesim/api"
	"kubesim/lab"
	"kubesim/scheduler/framework"
)

// Started is the TODO your Score or NormalizeScore still answers, or nil once you have written both.
func Started() error {
	ctx, p := context.Background(), SpreadByApp{}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "probe", Namespace: "default", Labels: map[string]string{"app": "web"}}}
	ni := framework.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}})
	if _, st := p.Score(ctx, framework.NewCycleState(), pod, ni); lab.IsTODO(st.AsError()) {
		return st.AsError()
	}
	return lab.Unfinished(p.NormalizeScore(ctx, framework.NewCycleState(), pod, framework.NodeScoreList{{Name: "node-1"}}).AsError())
}

// Swap is SpreadByApp added to the default scheduler's profile, weight 1 beside the default Score
// plugins (the grader's Profile leaves them out so that your scores alone decide).
func Swap() lab.Swap { return lab.WithSchedulerPlugin(Name, New, 1) }

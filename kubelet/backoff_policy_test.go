package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/kubelet"
)

// NodeConfig.CrashLoopBackOff replaces the restart delay policy (the crash-loop lab plugs a learner's
// in): here, 15s more each time, from 15s.
func TestACrashLoopPolicyReplacesTheDoubling(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, func(cfg *kubelet.NodeConfig) {
		cfg.CrashLoopBackOff = func(previous time.Duration) time.Duration { return previous + 15*time.Second }
	})
	p := newPod("crash", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_CRASH_AFTER", Value: "1s"}}
	createPod(t, ctx, c, p)
	require.NoError(t, c.Driver.Advance(ctx, 3*time.Minute))
	assert.Equal(t, []string{"15s", "30s", "45s", "1m0s"}, backoffs(c, "CrashLoopBackOff, back-off ")[:4])
}

package deployment_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/internal/testenv"
)

// In real time both controllers run their informers and five workers each on goroutines; the rollout
// still converges to exactly 3 pods.
func TestControllersRollOutInRealTime(t *testing.T) {
	c := withControllers(t, testenv.RealTime(1))

	c.applyNginx()
	require.Eventually(t, func() bool { return len(c.pods()) == 3 }, 10*time.Second, 5*time.Millisecond)
	c.kubelet()
	require.Eventually(t, func() bool { return c.rolledOut("nginx") }, 10*time.Second, 5*time.Millisecond)
	require.Len(t, c.pods(), 3)
	d := c.deployment("nginx")
	require.Equal(t, api.ConditionTrue, api.GetDeploymentCondition(d.Status, api.DeploymentAvailable).Status)
}

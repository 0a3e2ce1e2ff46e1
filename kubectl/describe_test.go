package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
)

// kubectl describe: the object as a person reads it, and the Events about it at the end.
func TestDescribeShowsTheObjectAndItsEvents(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rolledOut()

	out, err := c.k.Describe(c.ctx, "deployment", "default", "nginx")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Replicas: +3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable$`, out)
	assert.Regexp(t, `(?m)^StrategyType: +RollingUpdate$`, out)
	assert.Regexp(t, `(?m)^RollingUpdateStrategy: +25% max unavailable, 25% max surge$`, out)
	assert.Regexp(t, `(?m)^OldReplicaSets: +<none>$`, out)
	assert.Regexp(t, `(?m)^NewReplicaSet: +nginx-[a-z0-9]+ \(3/3 replicas created\)$`, out)
	assert.Regexp(t, `(?m)^  Normal +ScalingReplicaSet +\d+s +deployment-controller +Scaled up replica set nginx-[a-z0-9]+ from 0 to 3$`, out)

	pods, _, err := client.For[api.Pod](c.k.Client()).List(c.ctx, "default", client.ListOptions{LabelSelector: "app=nginx"})
	require.NoError(t, err)
	pod := pods[0]
	out, err = c.k.Describe(c.ctx, "po", "default", pod.Name)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Status: +Running$`, out)
	assert.Regexp(t, `(?m)^Controlled By: +ReplicaSet/nginx-[a-z0-9]+$`, out)
	assert.Regexp(t, `(?m)^    Image: +nginx:1.25$`, out)
	assert.Regexp(t, `(?m)^Events:\n +Type +Reason +Age +From +Message\n +---- +------ +---- +---- +-------\n  Normal +Scheduled .* default-scheduler +Successfully assigned default/`+pod.Name+` to `+pod.Spec.NodeName+`$`, out)

	require.NoError(t, c.k.Cordon(c.ctx, "node-2"))
	out, err = c.k.Describe(c.ctx, "node", "", "node-2")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Unschedulable: +true$`, out)
	assert.Regexp(t, `(?m)^  Ready +True +KubeletReady `, out)
}

package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/kubectl"
)

// kubectl rollout status says what the rollout waits for, in kubectl's words, until it is done.
func TestRolloutStatusFollowsTheRollout(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	msg, done, err := c.k.RolloutStatus(c.ctx, "default", "nginx")
	require.NoError(t, err)
	assert.False(t, done)
	assert.Equal(t, "Waiting for deployment spec update to be observed...", msg, "no controller has looked yet")
	c.rolledOut()
	msg, done, err = c.k.RolloutStatus(c.ctx, "default", "nginx")
	require.NoError(t, err)
	assert.True(t, done)
	assert.Equal(t, `deployment "nginx" successfully rolled out`, msg)

	require.NoError(t, c.k.SetImage(c.ctx, "default", "nginx", "nginx", "nginx:1.26"))
	var seen []string
	c.Driver.AfterStep = func() {
		msg, _, err := c.k.RolloutStatus(c.ctx, "default", "nginx")
		require.NoError(t, err)
		if len(seen) == 0 || seen[len(seen)-1] != msg {
			seen = append(seen, msg)
		}
	}
	c.rolledOut()
	c.Driver.AfterStep = nil
	assert.Contains(t, seen, `Waiting for deployment "nginx" rollout to finish: 0 out of 3 new replicas have been updated...`)
	assert.Contains(t, seen, `Waiting for deployment "nginx" rollout to finish: 1 out of 3 new replicas have been updated...`)
	assert.Contains(t, seen, `Waiting for deployment "nginx" rollout to finish: 1 old replicas are pending termination...`)
	assert.Equal(t, `deployment "nginx" successfully rolled out`, seen[len(seen)-1])
	assert.Equal(t, []string{"nginx:1.26", "nginx:1.26", "nginx:1.26"}, c.images())

	err = c.k.SetImage(c.ctx, "default", "nginx", "web", "nginx:1.27")
	assert.EqualError(t, err, `unable to find container named "web"`)
}

// kubectl scale writes the scale subresource; the ReplicaSet controller does the rest.
func TestScaleChangesReplicasThroughTheScaleSubresource(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rolledOut()
	require.NoError(t, c.k.Scale(c.ctx, "deployment", "default", "nginx", 1))
	assert.Equal(t, int32(1), *c.deployment().Spec.Replicas)
	require.NoError(t, c.Driver.RunUntil(c.ctx, "scaled to 1", func() (bool, error) { return len(c.images()) == 1, nil }, 0))
}

// kubectl rollout undo --to-revision=1: the template of revision 1 comes back; its old ReplicaSet
// becomes the new one again as revision 3. Undo with no revision goes back one.
func TestRolloutUndoBringsBackAnEarlierRevision(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rolledOut()
	require.NoError(t, c.k.SetImage(c.ctx, "default", "nginx", "nginx", "nginx:1.26"))
	c.rolledOut()

	history, err := c.k.RolloutHistory(c.ctx, "default", "nginx")
	require.NoError(t, err)
	assert.Equal(t, []string{"deployment.apps/nginx", "REVISION  CHANGE-CAUSE", "1         <none>", "2         <none>"}, lines(history))

	err = c.k.RolloutUndo(c.ctx, "default", "nginx", 9)
	assert.EqualError(t, err, "unable to find specified revision 9 in history")
	require.NoError(t, c.k.RolloutUndo(c.ctx, "default", "nginx", 1))
	c.rolledOut()
	d := c.deployment()
	assert.Equal(t, "nginx:1.25", d.Spec.Template.Spec.Containers[0].Image)
	assert.NotContains(t, d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey)
	assert.Equal(t, "3", d.Annotations[api.RevisionAnnotation])
	assert.Equal(t, []string{"nginx:1.25", "nginx:1.25", "nginx:1.25"}, c.images())
	rss, _, err := client.For[api.ReplicaSet](c.k.Client()).List(c.ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, rss, 2, "no third ReplicaSet: revision 1's is reused")

	history, err = c.k.RolloutHistory(c.ctx, "default", "nginx")
	require.NoError(t, err)
	assert.Equal(t, []string{"deployment.apps/nginx", "REVISION  CHANGE-CAUSE", "2         <none>", "3         <none>"}, lines(history))

	require.NoError(t, c.k.RolloutUndo(c.ctx, "default", "nginx", 0))
	c.rolledOut()
	assert.Equal(t, "nginx:1.26", c.deployment().Spec.Template.Spec.Containers[0].Image)

	before := c.deployment().ResourceVersion
	require.NoError(t, c.k.RolloutUndo(c.ctx, "default", "nginx", 4), "revision 4 is the current template")
	assert.Equal(t, before, c.deployment().ResourceVersion, "skipped rollback: nothing written")
}

func TestRolloutUndoOfAPausedDeploymentIsRefused(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rolledOut()
	d := c.deployment()
	d.Spec.Paused = true
	_, err := c.k.Update(c.ctx, d)
	require.NoError(t, err)
	assert.ErrorIs(t, c.k.RolloutUndo(c.ctx, "default", "nginx", 0), kubectl.ErrPausedRollback)
}

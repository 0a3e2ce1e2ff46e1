package deployment_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/deployment"
	"kubesim/internal/testenv"
)

// Self-healing through the whole chain: delete one pod of the Deployment and a new one, with a new
// name, takes its place.
func TestDeletedPodOfDeploymentIsReplaced(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rollout("nginx", nil)
	before := c.pods()
	require.NoError(t, c.Kubectl.Delete(c.ctx, "pods", "default", before[0].Name, client.DeleteOptions{}))
	c.runUntil("3 pods again", func() bool { return len(c.pods()) == 3 })
	for _, p := range c.pods() {
		assert.NotEqual(t, before[0].Name, p.Name)
	}
	assert.Len(t, c.replicaSets(), 1, "self-healing is the ReplicaSet's job; no new ReplicaSet")
}

// kubectl scale 3 -> 5 -> 2: the one ReplicaSet is resized and the events say so; scaling down
// removes the pods that serve least (not scheduled, not ready) first.
func TestScaleDeploymentResizesItsReplicaSet(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rollout("nginx", nil)
	rs := c.replicaSets()[0]
	ready := c.pods()
	// One of the ready pods is on a node: it must be the last to go.
	err := c.admin.Bind(c.ctx, "default", ready[0].Name, "node-1")
	require.NoError(t, err)

	require.NoError(t, c.Kubectl.Scale(c.ctx, "deployments", "default", "nginx", 5))
	c.runUntil("5 pods", func() bool { return len(c.pods()) == 5 })
	c.settle()
	assert.Equal(t, "5", c.replicaSets()[0].Annotations[deployment.DesiredReplicasAnnotation])

	require.NoError(t, c.Kubectl.Scale(c.ctx, "deployments", "default", "nginx", 2))
	c.runUntil("2 pods", func() bool { return len(c.pods()) == 2 })
	c.settle()
	left := c.pods()
	assert.Contains(t, []string{left[0].Name, left[1].Name}, ready[0].Name, "the scheduled, ready pod stays")
	for _, p := range left {
		assert.True(t, api.IsPodReady(p), "the two new, not ready pods went first")
	}
	assert.Equal(t, []string{
		"ScalingReplicaSet: Scaled up replica set " + rs.Name + " from 0 to 3",
		"ScalingReplicaSet: Scaled up replica set " + rs.Name + " from 3 to 5",
		"ScalingReplicaSet: Scaled down replica set " + rs.Name + " from 5 to 2",
	}, c.events("Deployment"))
	assert.Contains(t, testenv.Story(c.Cluster, deployment.Name), "scale default/nginx: spec.replicas is 2 -> scale ReplicaSet "+rs.Name+" from 5 to 2")
}

// A rolling update (25% surge, 25% unavailable of 3 = surge 1, unavailable 0) never runs more than 4
// pods and never has fewer than 3 available, at any step.
func TestRollingUpdateStaysWithinMaxSurgeAndMaxUnavailable(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rollout("nginx", nil)
	old := c.replicaSets()[0]

	c.setImage("nginx", "nginx:1.26")
	steps := 0
	c.rollout("nginx", func() {
		steps++
		pods := c.pods()
		available := 0
		for _, p := range pods {
			if api.IsPodReady(p) {
				available++
			}
		}
		require.LessOrEqual(t, len(pods), 4, "at most replicas + maxSurge pods (step %d)", steps)
		require.GreaterOrEqual(t, available, 3, "at least replicas - maxUnavailable available (step %d)", steps)
	})

	newRS := c.rsWithImage("nginx:1.26")
	old = c.rsWithImage("nginx:1.25")
	assert.Equal(t, int32(0), *old.Spec.Replicas)
	assert.Equal(t, int32(3), *newRS.Spec.Replicas)
	assert.Equal(t, "2", newRS.Annotations[api.RevisionAnnotation])
	assert.Equal(t, "1", old.Annotations[api.RevisionAnnotation])
	assert.Equal(t, "2", c.deployment("nginx").Annotations[api.RevisionAnnotation])
	for _, p := range c.pods() {
		assert.Equal(t, "nginx:1.26", p.Spec.Containers[0].Image)
	}
	up := func(from, to int) string {
		return fmt.Sprintf("ScalingReplicaSet: Scaled up replica set %s from %d to %d", newRS.Name, from, to)
	}
	down := func(from, to int) string {
		return fmt.Sprintf("ScalingReplicaSet: Scaled down replica set %s from %d to %d", old.Name, from, to)
	}
	assert.Equal(t, []string{
		fmt.Sprintf("ScalingReplicaSet: Scaled up replica set %s from 0 to 3", old.Name),
		up(0, 1), down(3, 2), up(1, 2), down(2, 1), up(2, 3), down(1, 0),
	}, c.events("Deployment"))
	d := c.deployment("nginx")
	assert.Equal(t, "NewReplicaSetAvailable", api.GetDeploymentCondition(d.Status, api.DeploymentProgressing).Reason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Name), api.GetDeploymentCondition(d.Status, api.DeploymentProgressing).Message)
}

// Going back to an earlier template (what kubectl rollout undo does, or setting the old image again):
// its old ReplicaSet becomes the new one again as revision 3, remembering revision 1 in
// revision-history; no third ReplicaSet is made.
func TestAnEarlierTemplateAgainReusesItsReplicaSet(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rollout("nginx", nil)
	c.setImage("nginx", "nginx:1.26")
	c.rollout("nginx", nil)
	c.setImage("nginx", "nginx:1.25")
	c.rollout("nginx", nil)

	assert.Len(t, c.replicaSets(), 2, "no third ReplicaSet: revision 1's is reused")
	back := c.rsWithImage("nginx:1.25")
	assert.Equal(t, int32(3), *back.Spec.Replicas)
	assert.Equal(t, "3", back.Annotations[api.RevisionAnnotation])
	assert.Equal(t, "1", back.Annotations[deployment.RevisionHistoryAnnotation])
	assert.Equal(t, "3", c.deployment("nginx").Annotations[api.RevisionAnnotation])
	for _, p := range c.pods() {
		assert.Equal(t, "nginx:1.25", p.Spec.Containers[0].Image)
	}
}

// Recreate: every old pod goes, and only once they are gone (terminating ones included) does the new
// ReplicaSet start; two versions never run side by side.
func TestRecreateRemovesOldPodsBeforeStartingNewOnes(t *testing.T) {
	c := newCluster(t)
	d := c.applyNginx()
	d = c.deployment("nginx")
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
	c.update(d)
	c.rollout("nginx", nil)
	// One old pod is on a node: deleting it only marks it, until its kubelet confirms.
	bound := c.pods()[0]
	err := c.admin.Bind(c.ctx, "default", bound.Name, "node-1")
	require.NoError(t, err)

	c.setImage("nginx", "nginx:1.26")
	c.runUntil("old pods deleted", func() bool { return len(c.pods()) == 0 })
	c.settle()
	assert.Len(t, c.replicaSets(), 1, "no new ReplicaSet while an old pod is still terminating")
	assert.Contains(t, testenv.Story(c.Cluster, deployment.Name), "recreate default/nginx: 1 pods of old ReplicaSets still exist -> wait until they are gone before starting new ones")

	// The kubelet finishes stopping the pod: it is gone, and the new ReplicaSet starts.
	_, _, err = client.For[api.Pod](c.admin).Delete(c.ctx, "default", bound.Name, client.DeleteOptions{GracePeriodSeconds: api.Ptr[int64](0)})
	require.NoError(t, err)
	c.rollout("nginx", func() {
		images := map[string]bool{}
		for _, p := range c.pods() {
			images[p.Spec.Containers[0].Image] = true
		}
		require.LessOrEqual(t, len(images), 1, "old and new pods side by side")
	})
	newRS := c.rsWithImage("nginx:1.26")
	assert.Equal(t, int32(3), *newRS.Spec.Replicas)
	assert.Contains(t, c.events("Deployment"), "ScalingReplicaSet: Scaled up replica set "+newRS.Name+" from 0 to 3")
}

// A paused Deployment starts no rollout when its template changes, but still scales; resuming starts
// the rollout.
func TestPausedDeploymentScalesButDoesNotRollOut(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rollout("nginx", nil)
	d := c.deployment("nginx")
	d.Spec.Paused = true
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.26"
	c.update(d)
	c.settle()
	assert.Len(t, c.replicaSets(), 1, "no new ReplicaSet while paused")
	progressing := api.GetDeploymentCondition(c.deployment("nginx").Status, api.DeploymentProgressing)
	assert.Equal(t, api.ConditionUnknown, progressing.Status)
	assert.Equal(t, "DeploymentPaused", progressing.Reason)
	assert.Equal(t, "Deployment is paused", progressing.Message)

	require.NoError(t, c.Kubectl.Scale(c.ctx, "deployments", "default", "nginx", 4))
	c.runUntil("4 pods", func() bool { return len(c.pods()) == 4 })
	for _, p := range c.pods() {
		assert.Equal(t, "nginx:1.25", p.Spec.Containers[0].Image, "scaling used the old template")
	}

	d = c.deployment("nginx")
	d.Spec.Paused = false
	c.update(d)
	c.rollout("nginx", nil)
	assert.Len(t, c.replicaSets(), 2)
	for _, p := range c.pods() {
		assert.Equal(t, "nginx:1.26", p.Spec.Containers[0].Image)
	}
	var resumed bool
	for _, l := range testenv.Story(c.Cluster, deployment.Name) {
		resumed = resumed || strings.HasSuffix(l, "Progressing=Unknown (DeploymentResumed)")
	}
	assert.True(t, resumed, "resuming is recorded in the Progressing condition")
}

// A rollout whose pods never become ready makes no progress; after progressDeadlineSeconds the
// Progressing condition turns False with ProgressDeadlineExceeded.
func TestStalledRolloutExceedsProgressDeadline(t *testing.T) {
	c := newCluster(t)
	d := c.applyNginx()
	d = c.deployment("nginx")
	d.Spec.ProgressDeadlineSeconds = api.Ptr[int32](60)
	c.update(d)
	start := c.Now()
	require.NoError(t, c.Driver.Advance(c.ctx, 90*time.Second)) // no kubelet: nothing ever becomes ready

	d = c.deployment("nginx")
	progressing := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	assert.Equal(t, api.ConditionFalse, progressing.Status)
	assert.Equal(t, "ProgressDeadlineExceeded", progressing.Reason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has timed out progressing.", c.replicaSets()[0].Name), progressing.Message)
	assert.Equal(t, "MinimumReplicasUnavailable", api.GetDeploymentCondition(d.Status, api.DeploymentAvailable).Reason)
	waited := progressing.LastTransitionTime.Sub(start)
	assert.True(t, waited > 60*time.Second && waited <= 62*time.Second, "timed out just after the deadline, not %s", waited)
}

// The Deployment adopts an orphan ReplicaSet its selector matches (an old version, so it is scaled
// down), and releases a ReplicaSet whose labels stop matching.
func TestDeploymentAdoptsOrphanReplicaSetsAndReleasesMismatches(t *testing.T) {
	c := newCluster(t)
	orphan := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "nginx-legacy", Namespace: "default", Labels: map[string]string{"app": "nginx"}},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](2),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx", "version": "legacy"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx", "version": "legacy"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.24"}}}}},
	}
	_, err := client.For[api.ReplicaSet](c.admin).Create(c.ctx, orphan)
	require.NoError(t, err)
	d := c.applyNginx()
	c.rollout("nginx", nil)

	legacy := c.rsWithImage("nginx:1.24")
	require.NotNil(t, legacy.ControllerRef())
	assert.Equal(t, d.UID, legacy.ControllerRef().UID, "adopted")
	assert.Equal(t, int32(0), *legacy.Spec.Replicas, "an old version: scaled down by the rollout")
	assert.Contains(t, testenv.Story(c.Cluster, deployment.Name), "adopt ReplicaSet default/nginx-legacy: an orphan whose labels match selector app=nginx -> controller reference to Deployment nginx")

	legacy.Labels = map[string]string{"app": "legacy"}
	_, err = client.For[api.ReplicaSet](c.admin).Update(c.ctx, legacy)
	require.NoError(t, err)
	c.settle()
	assert.Nil(t, c.rsWithImage("nginx:1.24").ControllerRef(), "released")
	assert.Contains(t, testenv.Story(c.Cluster, deployment.Name), "release ReplicaSet default/nginx-legacy: its labels no longer match selector app=nginx -> controller reference to Deployment nginx removed")
}

// Old ReplicaSets beyond revisionHistoryLimit are deleted once scaled down.
func TestRevisionHistoryLimitPrunesOldReplicaSets(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	d := c.deployment("nginx")
	d.Spec.RevisionHistoryLimit = api.Ptr[int32](1)
	c.update(d)
	c.rollout("nginx", nil)
	for _, image := range []string{"nginx:1.26", "nginx:1.27"} {
		c.setImage("nginx", image)
		c.rollout("nginx", nil)
	}
	var images []string
	for _, rs := range c.replicaSets() {
		images = append(images, rs.Spec.Template.Spec.Containers[0].Image+" revision "+rs.Annotations[api.RevisionAnnotation])
	}
	assert.ElementsMatch(t, []string{"nginx:1.26 revision 2", "nginx:1.27 revision 3"}, images)
	var pruned bool
	for _, l := range testenv.Story(c.Cluster, deployment.Name) {
		pruned = pruned || strings.HasPrefix(l, "revision history default/nginx: delete old ReplicaSet ")
	}
	assert.True(t, pruned)
}

// Same scenario, same seed: the same trace, message for message.
func TestSameRunGivesIdenticalTrace(t *testing.T) {
	run := func() []string {
		c := newCluster(t)
		c.applyNginx()
		c.rollout("nginx", nil)
		c.setImage("nginx", "nginx:1.26")
		c.rollout("nginx", nil)
		var msgs []string
		for _, e := range c.Trace.Events() {
			msgs = append(msgs, e.Time.String()+" "+e.Component+" "+e.Message)
		}
		return msgs
	}
	first, second := run(), run()
	require.NotEmpty(t, first)
	assert.Equal(t, first, second)
}

// Scaling in the middle of a rolling update shares the new pods out in proportion to each
// ReplicaSet's size (max-replicas annotation), so the rollout keeps its shape.
func TestScalingMidRolloutIsProportional(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rollout("nginx", nil)
	c.setImage("nginx", "nginx:1.26") // no kubelet from here on: the new pod never becomes ready
	c.settle()
	old, newRS := c.rsWithImage("nginx:1.25"), c.rsWithImage("nginx:1.26")
	require.Equal(t, int32(3), *old.Spec.Replicas)
	require.Equal(t, int32(1), *newRS.Spec.Replicas, "surge of 1, then stuck")

	// 6 replicas + maxSurge 2 (25% of 6, rounded up) = 8 pods allowed, 4 there: 4 to add, 3 to the
	// old ReplicaSet (3 of 4) and 1 to the new.
	require.NoError(t, c.Kubectl.Scale(c.ctx, "deployments", "default", "nginx", 6))
	c.settle()
	assert.Subset(t, testenv.Story(c.Cluster, deployment.Name), []string{
		"scale default/nginx: spec.replicas is 6 during a rollout -> scale ReplicaSet " + old.Name + " from 3 to 6 (in proportion, at most 8 pods)",
		"scale default/nginx: spec.replicas is 6 during a rollout -> scale ReplicaSet " + newRS.Name + " from 1 to 2 (in proportion, at most 8 pods)",
	})
	assert.Subset(t, c.events("Deployment"), []string{
		"ScalingReplicaSet: Scaled up replica set " + old.Name + " from 3 to 6",
		"ScalingReplicaSet: Scaled up replica set " + newRS.Name + " from 1 to 2",
	})
	// The rollout then goes on at the new size: never more than 8 pods.
	assert.Equal(t, "8", c.rsWithImage("nginx:1.25").Annotations[deployment.MaxReplicasAnnotation])
	assert.LessOrEqual(t, len(c.pods()), 8)
}

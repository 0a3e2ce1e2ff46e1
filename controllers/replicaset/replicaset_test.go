package replicaset_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/replicaset"
	"kubesim/internal/testenv"
)

// A ReplicaSet of 3 gets 3 pods named <rs>-<5 random characters>, each with a controller reference to
// it, and one SuccessfulCreate event per pod.
func TestReplicaSetCreatesPodsFromTemplateWithControllerRef(t *testing.T) {
	c := newCluster(t)
	rs := c.create(newReplicaSet(3))
	c.runUntil("3 pods", func() bool { return len(c.pods()) == 3 })
	c.settle()

	var created []string
	for _, p := range c.pods() {
		assert.Regexp(t, "^web-[bcdfghjklmnpqrstvwxz2456789]{5}$", p.Name)
		assert.Equal(t, "web-", p.GenerateName)
		assert.Equal(t, map[string]string{"app": "web"}, p.Labels)
		assert.Equal(t, "nginx:1.25", p.Spec.Containers[0].Image)
		assert.Equal(t, []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: rs.UID,
			Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}}, p.OwnerReferences)
		created = append(created, "Normal SuccessfulCreate: Created pod: "+p.Name)
	}
	assert.ElementsMatch(t, created, c.events())
	got := c.replicaSet("web")
	assert.Equal(t, api.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 3, ObservedGeneration: 1}, got.Status)
}

// Self-healing: delete a pod and the ReplicaSet sees 2 of 3 and makes another, with a new name.
func TestReplicaSetReplacesADeletedPod(t *testing.T) {
	c := newCluster(t)
	c.create(newReplicaSet(3))
	c.runUntil("3 pods", func() bool { return len(c.pods()) == 3 })
	before := names(c.pods())

	require.NoError(t, c.Kubectl.Delete(c.ctx, "pods", "default", before[0], client.DeleteOptions{}))
	c.runUntil("3 pods again", func() bool { return len(c.pods()) == 3 })
	after := names(c.pods())
	assert.NotContains(t, after, before[0])
	assert.Subset(t, after, before[1:])
	assert.Contains(t, c.events(), "Normal SuccessfulCreate: Created pod: "+newName(before, after))
}

func newName(before, after []string) string {
	for _, n := range after {
		if !contains(before, n) {
			return n
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The stale-cache scenario: right after creating pods, the controller's informer has not seen them.
// Reconciling again on that cache would create them twice; expectations make it wait instead.
func TestExpectationsStopASecondCreateWhileTheCacheLags(t *testing.T) {
	c := newCluster(t)
	c.create(newReplicaSet(3))
	require.NoError(t, c.Driver.Settle(c.ctx)) // the informer has seen the ReplicaSet, nothing else

	require.NoError(t, c.rsc.Reconcile(c.ctx, "default/web"))
	assert.Len(t, c.pods(), 3, "the first reconcile creates 3 pods")

	// The informer has not been pumped: its cache still shows no pods.
	require.NoError(t, c.rsc.Reconcile(c.ctx, "default/web"))
	assert.Len(t, c.pods(), 3, "the second reconcile, on the stale cache, creates nothing")
	assert.Contains(t, testenv.Story(c.Cluster, replicaset.Name), "reconcile default/web: wants 3, its cache shows 0, but 3 adds and 0 deletes it made are not in the cache yet -> wait (expectations)")

	// Once the informer catches up the controller acts again, and finds nothing to do.
	c.settle()
	assert.Len(t, c.pods(), 3)
	assert.Len(t, c.events(), 3)
}

// Expectations are not forever: if the adds never show up (a lost watch event), the controller trusts
// its cache again after 5 minutes.
func TestExpectationsExpireAfterFiveMinutes(t *testing.T) {
	c := newCluster(t)
	c.create(newReplicaSet(2))
	require.NoError(t, c.Driver.Settle(c.ctx))
	require.NoError(t, c.rsc.Reconcile(c.ctx, "default/web"))
	require.Len(t, c.pods(), 2)

	// Delete the pods behind the controller's back before its informer sees them come or go.
	for _, p := range c.pods() {
		_, _, err := client.For[api.Pod](c.admin).Delete(c.ctx, "default", p.Name, client.DeleteOptions{})
		require.NoError(t, err)
	}
	c.Clock.(interface{ Advance(time.Duration) }).Advance(5*time.Minute + time.Second)
	require.NoError(t, c.rsc.Reconcile(c.ctx, "default/web"))
	assert.Len(t, c.pods(), 2, "expired expectations: the controller acted on its cache (0 pods) and created 2")
}

// Scaling down deletes the least useful pods first: not scheduled before scheduled, Pending before
// Running, not ready before ready.
func TestScaleDownDeletesUnassignedAndNotReadyPodsFirst(t *testing.T) {
	c := newCluster(t)
	c.create(newReplicaSet(5))
	c.runUntil("5 pods", func() bool { return len(c.pods()) == 5 })
	pods := c.pods()
	// pods[0] and pods[1]: scheduled, running and ready; pods[2]: ready but unscheduled; the others
	// Pending.
	for _, p := range pods[:2] {
		err := c.admin.Bind(c.ctx, "default", p.Name, "node-1")
		require.NoError(t, err)
	}
	pods = c.pods()
	for _, p := range pods[:3] {
		c.makeReady(p)
	}
	c.settle()

	require.NoError(t, c.Kubectl.Scale(c.ctx, "replicasets", "default", "web", 2))
	c.runUntil("2 pods", func() bool { return len(c.pods()) == 2 })
	assert.Equal(t, names(pods[:2]), names(c.pods()), "the scheduled, ready pods stay")
	assert.Subset(t, c.events(), []string{
		"Normal SuccessfulDelete: Deleted pod: " + pods[2].Name,
		"Normal SuccessfulDelete: Deleted pod: " + pods[3].Name,
		"Normal SuccessfulDelete: Deleted pod: " + pods[4].Name,
	})
	assert.Contains(t, testenv.Story(c.Cluster, replicaset.Name), "reconcile default/web: wants 2, has 5 -> delete 3 pods (expecting 3 deletes): "+
		pods[3].Name+" (unassigned, Pending, not ready), "+pods[4].Name+" (unassigned, Pending, not ready), "+
		pods[2].Name+" (unassigned, Running, ready)")
}

// Status counts ready pods at once and available ones only after minReadySeconds; the controller
// looks again when that time has passed.
func TestAvailableReplicasHonourMinReadySeconds(t *testing.T) {
	c := newCluster(t)
	rs := newReplicaSet(2)
	rs.Spec.MinReadySeconds = 10
	c.create(rs)
	c.runUntil("2 pods", func() bool { return len(c.pods()) == 2 })
	for _, p := range c.pods() {
		c.makeReady(p)
	}
	c.settle()
	got := c.replicaSet("web").Status
	assert.Equal(t, int32(2), got.ReadyReplicas)
	assert.Equal(t, int32(0), got.AvailableReplicas)

	require.NoError(t, c.Driver.Advance(c.ctx, 11*time.Second))
	assert.Equal(t, int32(2), c.replicaSet("web").Status.AvailableReplicas)
}

// A ReplicaSet adopts an orphan pod whose labels match its selector (and so creates one pod fewer),
// and releases a pod whose labels stop matching (and replaces it).
func TestReplicaSetAdoptsMatchingOrphansAndReleasesMismatches(t *testing.T) {
	c := newCluster(t)
	orphan := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	_, err := client.For[api.Pod](c.admin).Create(c.ctx, orphan)
	require.NoError(t, err)
	rs := c.create(newReplicaSet(2))
	c.runUntil("2 pods", func() bool { return len(c.pods()) == 2 })
	c.settle()

	stray, err := client.For[api.Pod](c.admin).Get(c.ctx, "default", "stray")
	require.NoError(t, err)
	require.NotNil(t, stray.ControllerRef())
	assert.Equal(t, rs.UID, stray.ControllerRef().UID, "adopted")
	assert.Contains(t, testenv.Story(c.Cluster, replicaset.Name),
		"adopt pod default/stray: an orphan whose labels match selector app=web -> controller reference to ReplicaSet web")
	assert.Len(t, c.events(), 1, "only one pod had to be created")

	// kubectl label pod stray app=debug --overwrite: the pod leaves the ReplicaSet.
	stray.Labels["app"] = "debug"
	_, err = client.For[api.Pod](c.admin).Update(c.ctx, stray)
	require.NoError(t, err)
	c.settle()
	stray, err = client.For[api.Pod](c.admin).Get(c.ctx, "default", "stray")
	require.NoError(t, err)
	assert.Nil(t, stray.ControllerRef(), "released")
	assert.Contains(t, testenv.Story(c.Cluster, replicaset.Name),
		"release pod default/stray: its labels no longer match selector app=web -> controller reference to ReplicaSet web removed")
	assert.Len(t, c.pods(), 3, "a replacement was made; the released pod lives on")
	assert.Equal(t, int32(2), c.replicaSet("web").Status.Replicas)
}

// A failed create stops the slow start: one attempt, one FailedCreate event and a ReplicaFailure
// condition, not five. Once the cause is fixed, the retry creates the pods and clears the condition.
func TestFailedCreateStopsSlowStartAndSetsReplicaFailure(t *testing.T) {
	c := newCluster(t)
	rs := newReplicaSet(5)
	rs.Spec.Template.Spec.ServiceAccountName = "web-sa" // does not exist yet: admission refuses the pods
	c.create(rs)
	require.NoError(t, c.Driver.Settle(c.ctx))
	did, err := c.rsc.Step(c.ctx)
	require.NoError(t, err)
	require.True(t, did)

	assert.Empty(t, c.pods())
	evs := c.events()
	require.Len(t, evs, 1)
	assert.Regexp(t, `^Warning FailedCreate: Error creating: pods "web-\w+" is forbidden: error looking up service account default/web-sa: serviceaccount "web-sa" not found$`, evs[0])
	cond := c.replicaSet("web").Status.Conditions
	require.Len(t, cond, 1)
	assert.Equal(t, api.ReplicaSetReplicaFailure, cond[0].Type)
	assert.Equal(t, "FailedCreate", cond[0].Reason)

	_, err = client.For[api.ServiceAccount](c.admin).Create(c.ctx, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "web-sa", Namespace: "default"}})
	require.NoError(t, err)
	c.runUntil("5 pods", func() bool { return len(c.pods()) == 5 })
	c.settle()
	assert.Empty(t, c.replicaSet("web").Status.Conditions)
}

// Same scenario, same seed: the same trace, message for message.
func TestSameRunGivesIdenticalTrace(t *testing.T) {
	run := func() []string {
		c := newCluster(t)
		c.create(newReplicaSet(3))
		c.runUntil("3 pods", func() bool { return len(c.pods()) == 3 })
		require.NoError(t, c.Kubectl.Delete(c.ctx, "pods", "default", c.pods()[1].Name, client.DeleteOptions{}))
		c.settle()
		require.NoError(t, c.Kubectl.Scale(c.ctx, "replicasets", "default", "web", 1))
		c.settle()
		var msgs []string
		for _, e := range c.Trace.Events() {
			msgs = append(msgs, e.Component+" "+e.Message)
		}
		return msgs
	}
	first, second := run(), run()
	require.NotEmpty(t, first)
	assert.Equal(t, first, second)
}

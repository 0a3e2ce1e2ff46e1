package deployment_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/controllers/deployment"
)

// kubectl apply -f nginx-deployment.yaml: the Deployment controller creates ReplicaSet
// nginx-<hash> with 3 replicas, the ReplicaSet controller creates 3 pods, and as they become ready the
// statuses roll up to the Deployment.
func TestCreateDeploymentMakesReplicaSetAndThreePods(t *testing.T) {
	c := newCluster(t)
	d := c.applyNginx()
	c.runUntil("3 pods exist", func() bool { return len(c.pods()) == 3 })

	hash := deployment.ComputeHash(&d.Spec.Template, nil)
	rss := c.replicaSets()
	require.Len(t, rss, 1)
	rs := rss[0]
	assert.Equal(t, "nginx-"+hash, rs.Name)
	assert.Equal(t, hash, rs.Labels["pod-template-hash"])
	assert.Equal(t, hash, rs.Spec.Selector.MatchLabels["pod-template-hash"])
	assert.Equal(t, hash, rs.Spec.Template.Labels["pod-template-hash"])
	assert.Equal(t, "1", rs.Annotations[api.RevisionAnnotation])
	assert.Equal(t, "3", rs.Annotations[deployment.DesiredReplicasAnnotation])
	assert.Equal(t, "4", rs.Annotations[deployment.MaxReplicasAnnotation], "3 + maxSurge 25% of 3 rounded up")
	ref := rs.ControllerRef()
	require.NotNil(t, ref)
	assert.Equal(t, api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "nginx", UID: d.UID,
		Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}, *ref)

	var created []string
	for _, p := range c.pods() {
		assert.Regexp(t, "^nginx-"+hash+"-[bcdfghjklmnpqrstvwxz2456789]{5}$", p.Name)
		assert.Equal(t, rs.Name+"-", p.GenerateName)
		assert.Equal(t, map[string]string{"app": "nginx", "pod-template-hash": hash}, p.Labels)
		ref := p.ControllerRef()
		require.NotNil(t, ref)
		assert.Equal(t, api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID,
			Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}, *ref)
		created = append(created, "SuccessfulCreate: Created pod: "+p.Name)
	}
	assert.ElementsMatch(t, created, c.events("ReplicaSet"))
	assert.Equal(t, []string{fmt.Sprintf("ScalingReplicaSet: Scaled up replica set nginx-%s from 0 to 3", hash)}, c.events("Deployment"))

	// Nothing is ready yet: the Deployment does not have minimum availability.
	c.settle()
	d = c.deployment("nginx")
	assert.Equal(t, "1", d.Annotations[api.RevisionAnnotation])
	assert.Equal(t, api.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, UnavailableReplicas: 3}, withoutConditions(d.Status))
	assert.Equal(t, api.ConditionFalse, api.GetDeploymentCondition(d.Status, api.DeploymentAvailable).Status)
	assert.Equal(t, "MinimumReplicasUnavailable", api.GetDeploymentCondition(d.Status, api.DeploymentAvailable).Reason)
	assert.Equal(t, "ReplicaSetUpdated", api.GetDeploymentCondition(d.Status, api.DeploymentProgressing).Reason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q is progressing.", rs.Name), api.GetDeploymentCondition(d.Status, api.DeploymentProgressing).Message)

	// The kubelets report the pods ready: 3/3 available, the rollout has finished.
	c.kubelet()
	c.runUntil("rolled out", func() bool { return c.rolledOut("nginx") })
	c.settle()
	d = c.deployment("nginx")
	assert.Equal(t, api.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3},
		withoutConditions(d.Status))
	assert.Equal(t, api.DeploymentCondition{Type: api.DeploymentAvailable, Status: api.ConditionTrue, Reason: "MinimumReplicasAvailable",
		Message: "Deployment has minimum availability."}, withoutTimes(*api.GetDeploymentCondition(d.Status, api.DeploymentAvailable)))
	assert.Equal(t, api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: "NewReplicaSetAvailable",
		Message: fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs.Name)}, withoutTimes(*api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)))
}

func withoutTimes(c api.DeploymentCondition) api.DeploymentCondition {
	c.LastUpdateTime, c.LastTransitionTime = api.Time{}, api.Time{}
	return c
}

func withoutConditions(s api.DeploymentStatus) api.DeploymentStatus {
	s.Conditions = nil
	return s
}

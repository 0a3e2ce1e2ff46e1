package lab_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/lab"
	"kubesim/scenarios/manifests"
)

// The article's timeline as a test: apply, let the cluster work, check what kubectl would show.
func TestTheArticlesDeploymentBecomesAvailable(t *testing.T) {
	l := lab.New(t)
	l.Apply(manifests.NginxDeployment)
	l.Until("deployment nginx available")
	assert.Equal(t, int32(3), l.Deployment("nginx").Status.AvailableReplicas)
	assert.Len(t, l.Pods("app=nginx"), 3)
	l.ExpectEvent("ScalingReplicaSet", "Scaled up replica set nginx-")
	l.ExpectEvent("Scheduled", "Successfully assigned default/nginx-")
	l.ExpectTrace("kube-scheduler", "pass Filter")
	assert.True(t, l.Holds("pods -l app=nginx running"))
}

func TestAnUnschedulablePodShowsTheSchedulersMessage(t *testing.T) {
	l := lab.New(t, lab.Nodes(1))
	l.Apply(`apiVersion: v1
kind: Pod
metadata: {name: huge}
spec:
  containers:
  - {name: app, image: nginx:1.25, resources: {requests: {cpu: "64"}}}
`)
	l.Advance(30 * time.Second)
	assert.False(t, l.Holds("pod huge bound"), "no node has 64 CPUs")
	l.ExpectEvent("FailedScheduling", "0/1 nodes are available: 1 Insufficient cpu.")
}

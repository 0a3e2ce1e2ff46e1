package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/scenarios/manifests"
	"kubesim/scheduler"
)

func kubesimExplain(t *testing.T, manifest string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if manifest != "" {
		path := filepath.Join(t.TempDir(), "manifest.yaml")
		require.NoError(t, os.WriteFile(path, []byte(manifest), 0o644))
		args = append([]string{"-f", path}, args...)
	}
	var out, errOut bytes.Buffer
	code = explain(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

const explainDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        resources:
          requests:
            cpu: "1"
`

func TestExplainShowsEveryFilterAndScoreAndTheNodeTheSchedulerChose(t *testing.T) {
	code, out, errOut := kubesimExplain(t, explainDeployment, "--pod", "default/web-*")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{
		"(schedulerName default-scheduler): 3 of 3 nodes pass Filter",
		"PLUGIN              node-1  node-2  node-3",
		"NodeResourcesFit    pass    pass    pass",
		"VolumeZone          skip    skip    skip",
		"Score (raw→normalised, weight; total = Σ normalised × weight)",
		"TOTAL",
		"Then kube-scheduler bound default/web-",
	} {
		assert.Contains(t, out, want)
	}
}

func TestExplainJSONIsTheSchedulersExplanation(t *testing.T) {
	code, out, errOut := kubesimExplain(t, explainDeployment, "--pod", "default/web-*", "--nodes", "2", "--output", "json")
	require.Equal(t, 0, code, errOut)
	var ex scheduler.Explanation
	require.NoError(t, json.Unmarshal([]byte(out), &ex))
	assert.True(t, strings.HasPrefix(ex.Pod, "default/web-"))
	assert.Equal(t, 2, ex.Feasible)
	require.Len(t, ex.Nodes, 2)
	assert.NotEmpty(t, ex.Nodes[0].Filters)
	assert.NotEmpty(t, ex.Nodes[0].Scores)
	assert.NotEmpty(t, ex.Winner)
}

// An unschedulable pod: the explanation's message is what FailedScheduling says, and every node's
// rejection is named.
func TestExplainAPendingPodGivesKubernetesMessage(t *testing.T) {
	huge := `apiVersion: v1
kind: Pod
metadata:
  name: huge
spec:
  containers:
  - name: huge
    image: nginx:1.25
    resources:
      requests:
        cpu: "6"
`
	code, out, errOut := kubesimExplain(t, huge, "--pod", "default/huge")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "0 of 3 nodes pass Filter\n0/3 nodes are available: 3 Insufficient cpu.")
	assert.Contains(t, out, "node-2, NodeResourcesFit: Insufficient cpu")
	assert.Contains(t, out, "Then kube-scheduler left default/huge Pending: PodScheduled=False (Unschedulable): 0/3 nodes are available: 3 Insufficient cpu.")
}

// --scenario borrows a scenario's nodes: the taints scenario's control-plane and GPU nodes repel an
// ordinary pod.
func TestExplainOnAScenariosClusterShape(t *testing.T) {
	pod := `apiVersion: v1
kind: Pod
metadata:
  name: plain
spec:
  containers:
  - name: plain
    image: nginx:1.25
`
	code, out, errOut := kubesimExplain(t, pod, "--pod", "plain", "--scenario", "taints")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "2 of 4 nodes pass Filter")
	assert.Contains(t, out, "control-plane, TaintToleration: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")
	assert.Contains(t, out, "gpu-1, TaintToleration: node(s) had untolerated taint {nvidia.com/gpu: present}")
}

func TestExplainRefusesWhatItCannotExplain(t *testing.T) {
	code, _, errOut := kubesimExplain(t, "", "--pod", "default/web")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "kubesim explain: missing -f MANIFEST (the objects to apply)")

	code, _, errOut = kubesimExplain(t, explainDeployment, "--pod", "default/web-*", "--output", "yaml")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--output must be text or json, not "yaml"`)

	code, _, errOut = kubesimExplain(t, explainDeployment, "--pod", "default/web-*", "--scenario", "no-such")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no scenario named "no-such"`)

	code, _, errOut = kubesimExplain(t, explainDeployment, "--pod", "default/ghost")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "no pod default/ghost appeared within 5m0s of cluster time")

	// The custom-scheduler scenario's pod, which asks for my-scheduler.
	code, _, errOut = kubesimExplain(t, manifests.Read("special-pod.yaml"), "--pod", "default/special")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, `names schedulerName "my-scheduler", and kube-scheduler serves only default-scheduler`)
}

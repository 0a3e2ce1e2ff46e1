package kubelet_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
)

// The downward API and $(VAR) expansion, read back from what the container printed: fieldRef gives
// the pod's name, node and IP; resourceFieldRef its cpu request in millicores and its memory limit in
// MiB, which it does not set, so the node's allocatable (8Gi - 100Mi = 8092Mi); a value expands the
// variables declared before it, not LATER, declared after; the command expands against the whole
// environment, LATER included. (expand_test.go checks $$ and the unknown references.)
func TestDownwardAPIAndVariableExpansion(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	node := addNode(t, ctx, c, 2, nil)
	p := newPod("who", "node-2", "busybox:1.36")
	ctr := &p.Spec.Containers[0]
	ctr.Resources.Requests = resource.ResourceList{resource.ResourceCPU: resource.MustParse("250m")}
	field := func(path string) *api.EnvVarSource {
		return &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: path}}
	}
	ctr.Env = []api.EnvVar{
		{Name: "POD_NAME", ValueFrom: field("metadata.name")},
		{Name: "NODE", ValueFrom: field("spec.nodeName")},
		{Name: "POD_IP", ValueFrom: field("status.podIP")},
		{Name: "CPU_M", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "requests.cpu", Divisor: resource.MustParse("1m")}}},
		{Name: "MEM_MI", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.memory", Divisor: resource.MustParse("1Mi")}}},
		{Name: "GREETING", Value: "$(POD_NAME)@$(NODE)"},
		{Name: "EARLY", Value: "[$(LATER)]"},
		{Name: "LATER", Value: "late"},
	}
	ctr.Command = []string{"sh", "-c", "echo $(GREETING) ip=$(POD_IP) cpu=$(CPU_M)m mem=$(MEM_MI)Mi later=$(LATER) early=$(EARLY); sleep 3600"}
	created := createPod(t, ctx, c, p)
	assert.Equal(t, "v1", created.Spec.Containers[0].Env[0].ValueFrom.FieldRef.APIVersion, "apiVersion defaulted")

	runUntil(t, ctx, c, "who running", func() bool { return containerStatus(getPod(t, ctx, c, "who")).State.Running != nil })
	got := getPod(t, ctx, c, "who")
	require.NotEmpty(t, got.Status.PodIP)
	_, id, _ := strings.Cut(containerStatus(got).ContainerID, "://")
	lines, err := node.rt.ContainerLogs(ctx, id, -1)
	require.NoError(t, err)
	require.NotEmpty(t, lines)
	assert.Equal(t, "who@node-2 ip="+got.Status.PodIP+" cpu=250m mem=8092Mi later=late early=[$(LATER)]", lines[0].Log)
}

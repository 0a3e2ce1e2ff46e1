package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/wire"
)

// Each breakpoint names the request it stops before, and no other: a read never stops, nor does the
// simulator's own quiet look at the cluster.
func TestBreakpointsMatchTheRequestsTheyName(t *testing.T) {
	bind := &wire.Request{Agent: "kube-scheduler", Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "web-1"}
	createPod := &wire.Request{Agent: "kube-controller-manager", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default"}
	getPod := &wire.Request{Agent: "kubectl", Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "web-1"}
	quiet := &wire.Request{Agent: "kubesim", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Quiet: true}
	createDeploy := &wire.Request{Agent: "kubectl", Verb: wire.VerbCreate, Resource: "deployments.apps", Namespace: "default", Name: "web"}
	for _, tc := range []struct {
		spec    string
		matches []*wire.Request
		misses  []*wire.Request
	}{
		{"scheduler bind", []*wire.Request{bind}, []*wire.Request{createPod, getPod, createDeploy}},
		{"apiserver admit", []*wire.Request{bind, createPod, createDeploy}, []*wire.Request{getPod, quiet}},
		{"apiserver admit deployments", []*wire.Request{createDeploy}, []*wire.Request{bind, createPod}},
		{"etcd put /registry/pods", []*wire.Request{bind, createPod}, []*wire.Request{createDeploy, getPod, quiet}},
		{"etcd put /registry/pods/default/web-1", []*wire.Request{bind, createPod}, []*wire.Request{createDeploy}},
		{"etcd put /registry/deployments/default/web", []*wire.Request{createDeploy}, []*wire.Request{bind}},
	} {
		b, err := ParseBreakpoint(tc.spec)
		require.NoError(t, err)
		assert.Equal(t, tc.spec, b.String())
		for _, r := range tc.matches {
			assert.True(t, b.matchRequest(r), "%s stops before %s", tc.spec, describeRequest(r))
		}
		for _, r := range tc.misses {
			assert.False(t, b.matchRequest(r), "%s does not stop before %s", tc.spec, describeRequest(r))
		}
	}
	for _, bad := range []string{"scheduler", "scheduler sleep", "etcd put pods", "kubelet StartContainer node-1 extra"} {
		_, err := ParseBreakpoint(bad)
		assert.Error(t, err, bad)
	}
}

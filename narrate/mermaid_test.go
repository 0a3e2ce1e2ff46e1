package narrate

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/trace"
)

// The Mermaid diagram follows --lang: its notes are the catalogue's telling, its write labels the
// narrator's own words.
func TestMermaidTellsNotesInChinese(t *testing.T) {
	var out bytes.Buffer
	n, err := New(&out, Options{Format: "mermaid", Lang: "zh", Catalog: trace.Catalog{
		"%d. kubectl apply -f nginx-deployment.yaml": "%d. 执行 kubectl apply -f nginx-deployment.yaml",
		"put %s -> revision %d":                      "写入 etcd（持久化）%s -> revision %d",
	}})
	require.NoError(t, err)
	n.Event(trace.Event{Component: "scenario", Action: "step"}.Msgf("%d. kubectl apply -f nginx-deployment.yaml", 1))
	n.Event(trace.Event{Component: "etcd", Actor: "kubernetes-admin", Action: "put", Object: "deployments/default/nginx"}.
		Msgf("put %s -> revision %d", "/registry/deployments/default/nginx", 46))
	require.NoError(t, n.Close())
	assert.Contains(t, out.String(), "Note over kubectl: 1. 执行 kubectl apply -f nginx-deployment.yaml")
	assert.Contains(t, out.String(), "kubectl->>API: 写入 deployments/default/nginx")
	assert.Contains(t, out.String(), "API->>etcd: 写入 etcd（持久化）/registry/deployments/default/nginx -> revision 46")
}

// Every component's watch is drawn, once per object: the controllers', the scheduler's queueing of a
// pending pod, and the kubelet's watch on the pods bound to its node (issue 12).
func TestMermaidDrawsEveryComponentsWatch(t *testing.T) {
	var out bytes.Buffer
	n, err := New(&out, Options{Format: "mermaid", Lang: "zh", Catalog: trace.Catalog{}})
	require.NoError(t, err)
	n.Event(trace.Event{Component: "scenario", Action: "step", Message: "1. apply"})
	for range 2 {
		n.Event(trace.Event{Component: "kube-scheduler", Action: "queue", Object: "pods/default/web-1", Detail: true,
			Message: "pending pod default/web-1 -> activeQ (priority 0)"})
	}
	n.Event(trace.Event{Component: "kubelet/node-2", Action: "sync", Object: "pods/default/web-1", Message: "admitted pod default/web-1"})
	n.Event(trace.Event{Component: "kubelet/node-2", Action: "sync", Object: "pods/default/web-1", Message: "RunPodSandbox"})
	require.NoError(t, n.Close())
	assert.Equal(t, 1, bytes.Count(out.Bytes(), []byte("API-->>kube_scheduler: pending pod default/web-1 -> activeQ")), out.String())
	assert.Equal(t, 1, bytes.Count(out.Bytes(), []byte("API-->>kubelet_node_2: watch：default/web-1 已绑定到 node-2")), out.String())
}

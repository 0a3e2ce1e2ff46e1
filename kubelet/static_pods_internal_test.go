package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// A manifest becomes the static pod the file source makes of it: named after the node, bound to it,
// its UID a hash of the manifest, the node and the file (the same on every read, another on another
// node), in the annotations with the source and when it was seen, tolerating every NoExecute taint.
// Its mirror pod carries the hash as config.mirror and is owned by the Node.
func TestStaticPodAndItsMirrorAreTheKubeletsOwn(t *testing.T) {
	manifest := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "kube-scheduler", Namespace: api.NamespaceSystem},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "kube-scheduler", Image: "registry.k8s.io/kube-scheduler:v1.34.1"}}}}
	seen := time.Date(2026, 12, 3, 4, 0, 0, 123, time.UTC)
	got := staticPods([]*api.Pod{manifest}, "control-plane", seen)
	again := staticPods([]*api.Pod{manifest}, "control-plane", seen.Add(time.Hour))
	elsewhere := staticPods([]*api.Pod{manifest}, "other", seen)
	assert.Len(t, got, 1)
	p := got[0].pod
	assert.Equal(t, "/etc/kubernetes/manifests/kube-scheduler.yaml", got[0].path)
	assert.Equal(t, "kube-scheduler-control-plane", p.Name)
	assert.Equal(t, "control-plane", p.Spec.NodeName)
	assert.Regexp(t, `^[0-9a-f]{32}$`, p.UID)
	assert.Equal(t, p.UID, again[0].pod.UID, "the same file on the same node")
	assert.NotEqual(t, p.UID, elsewhere[0].pod.UID, "another node")
	assert.Equal(t, map[string]string{ConfigHashAnnotation: p.UID, ConfigSeenAnnotation: "2026-12-03T04:00:00.000000123Z",
		ConfigSourceAnnotation: "file"}, p.Annotations)
	assert.Equal(t, []api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}}, p.Spec.Tolerations)
	assert.Empty(t, manifest.Annotations, "the manifest itself is left alone")

	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "control-plane", UID: "node-uid"}}
	m := mirrorPod(p, node)
	assert.Empty(t, m.UID, "the apiserver gives the mirror its own")
	assert.Equal(t, p.UID, m.Annotations[ConfigMirrorAnnotation])
	assert.Equal(t, []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "control-plane", UID: "node-uid", Controller: api.Ptr(true)}}, m.OwnerReferences)
	assert.NotContains(t, p.Annotations, ConfigMirrorAnnotation, "the static pod is not its mirror")
}

package api

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api/resource"
)

func TestSpecEqualIgnoresMetadataAndStatus(t *testing.T) {
	a, b := fullPod(), fullPod()
	b.ResourceVersion, b.Labels["extra"] = "42", "x"
	b.Status.Phase = PodFailed
	assert.True(t, SpecEqual(a, b))

	b.Spec.Containers[0].Image = "nginx:1.26"
	assert.False(t, SpecEqual(a, b), "an image change is a spec change, which bumps metadata.generation")
}

func TestSpecEqualIsSemantic(t *testing.T) {
	a, b := fullPod(), fullPod()
	b.Spec.Containers[0].Resources.Requests[resource.ResourceCPU] = resource.MustParse("0.1")
	b.Spec.Containers[0].Env = []EnvVar{} // empty, where a has nil
	assert.True(t, SpecEqual(a, b), `"0.1" and "100m" cpu are the same request; nil and empty are the same list`)
}

func TestSpecEqualForKindsWithoutSpec(t *testing.T) {
	a := &Role{Rules: []PolicyRule{{Verbs: []string{"get"}, Resources: []string{"pods"}}}}
	b := DeepCopy(a)
	assert.True(t, SpecEqual(a, b))
	b.Rules[0].Verbs = append(b.Rules[0].Verbs, "list")
	assert.False(t, SpecEqual(a, b), "a Role's rules are its desired state")

	assert.False(t, SpecEqual(&Pod{}, &Node{}), "different kinds")
}

func TestCopyStatus(t *testing.T) {
	dst, src := &Pod{}, fullPod()
	assert.True(t, CopyStatus(dst, src))
	assert.Equal(t, src.Status, dst.Status)
	assert.Empty(t, dst.Spec.Containers, "only the status is copied")

	dst.Status.ContainerStatuses[0].Name = "changed"
	assert.Equal(t, "web", src.Status.ContainerStatuses[0].Name, "the copied status is independent")

	assert.False(t, CopyStatus(&Role{}, &Role{}))
	assert.False(t, CopyStatus(&Pod{}, &Node{}))
}

func TestTakeStatus(t *testing.T) {
	dst, src := &Pod{}, fullPod()
	assert.True(t, TakeStatus(dst, src))
	assert.Equal(t, src.Status, dst.Status)
	assert.Empty(t, dst.Spec.Containers, "only the status is taken")
	assert.Same(t, &src.Status.ContainerStatuses[0], &dst.Status.ContainerStatuses[0], "the status is src's own, not a copy")

	assert.False(t, TakeStatus(&Role{}, &Role{}))
	assert.False(t, TakeStatus(&Pod{}, &Node{}))
}

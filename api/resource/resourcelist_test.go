package resource

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResourceListAccessorsReturnZeroForMissingResources(t *testing.T) {
	rl := ResourceList{ResourceCPU: MustParse("2"), ResourceMemory: MustParse("4Gi")}
	assert.Equal(t, "2", rl.Cpu().String())
	assert.Equal(t, "4Gi", rl.Memory().String())
	assert.True(t, rl.Pods().IsZero())
	assert.True(t, ResourceList(nil).Cpu().IsZero())
}

func TestResourceListAddSumsPerResource(t *testing.T) {
	total := ResourceList{}
	total.Add(ResourceList{ResourceCPU: MustParse("500m"), ResourceMemory: MustParse("1Gi")})
	total.Add(ResourceList{ResourceCPU: MustParse("1"), ResourceMemory: MustParse("512Mi"), ResourcePods: MustParse("1")})
	assert.Equal(t, "1500m", total.Cpu().String())
	assert.Equal(t, "1536Mi", total.Memory().String())
	assert.Equal(t, "1", total.Pods().String())
	assert.Len(t, total, 3)
}

func TestResourceListDeepCopyIsIndependent(t *testing.T) {
	orig := ResourceList{ResourceCPU: MustParse("1")}
	cp := orig.DeepCopy()
	cp.Add(ResourceList{ResourceCPU: MustParse("1")})
	cp[ResourceEphemeralStorage] = MustParse("10Gi")
	assert.Equal(t, "1", orig.Cpu().String())
	assert.Len(t, orig, 1)
	assert.Equal(t, "2", cp.Cpu().String())
	assert.Nil(t, ResourceList(nil).DeepCopy())
}

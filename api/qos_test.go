package api

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api/resource"
)

func podWith(resources ...ResourceRequirements) *Pod {
	pod := &Pod{}
	for _, r := range resources {
		pod.Spec.Containers = append(pod.Spec.Containers, Container{Name: "c", Resources: r})
	}
	return pod
}

func list(pairs ...string) resource.ResourceList {
	rl := resource.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		rl[resource.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return rl
}

// https://kubernetes.io/docs/concepts/workloads/pods/pod-qos/
func TestQOSClass(t *testing.T) {
	for name, tc := range map[string]struct {
		pod  *Pod
		want PodQOSClass
	}{
		"no requests or limits": {podWith(ResourceRequirements{}), PodQOSBestEffort},
		"only other resources count for nothing": {
			podWith(ResourceRequirements{Requests: list("ephemeral-storage", "1Gi")}), PodQOSBestEffort},
		"requests equal limits for cpu and memory": {
			podWith(ResourceRequirements{Requests: list("cpu", "500m", "memory", "128Mi"), Limits: list("cpu", "0.5", "memory", "128Mi")}),
			PodQOSGuaranteed},
		"every container must be guaranteed": {
			podWith(
				ResourceRequirements{Requests: list("cpu", "1", "memory", "1Gi"), Limits: list("cpu", "1", "memory", "1Gi")},
				ResourceRequirements{}),
			PodQOSBurstable},
		"request below limit": {
			podWith(ResourceRequirements{Requests: list("cpu", "100m", "memory", "128Mi"), Limits: list("cpu", "200m", "memory", "128Mi")}),
			PodQOSBurstable},
		"only a cpu limit": {
			podWith(ResourceRequirements{Requests: list("cpu", "1"), Limits: list("cpu", "1")}), PodQOSBurstable},
		"limits without requests before defaulting": {
			podWith(ResourceRequirements{Limits: list("cpu", "1", "memory", "1Gi")}), PodQOSBurstable},
	} {
		assert.Equal(t, tc.want, QOSClass(tc.pod), name)
	}
}

func TestLimitsOnlyPodIsGuaranteedAfterDefaulting(t *testing.T) {
	pod := podWith(ResourceRequirements{Limits: list("cpu", "1", "memory", "1Gi")})
	SetDefaults(pod)
	assert.Equal(t, PodQOSGuaranteed, QOSClass(pod))
}

func TestPodRequestsSumsContainers(t *testing.T) {
	pod := podWith(
		ResourceRequirements{Requests: list("cpu", "250m", "memory", "64Mi")},
		ResourceRequirements{Requests: list("cpu", "0.5")},
		ResourceRequirements{},
	)
	got := PodRequests(pod)
	assert.Equal(t, int64(750), got.Cpu().MilliValue())
	assert.Equal(t, int64(64<<20), got.Memory().Value())
	assert.Len(t, got, 2)
	assert.Empty(t, PodRequests(&Pod{}))
}

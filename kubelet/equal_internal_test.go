package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// statusesDiffer may only say "different" where semanticEqual would: checked on every pair of a
// set of statuses that differ from one another in one field each, and on copies that differ in
// nothing semantic (nil and empty, the same time).
func TestStatusesDifferOnlyWhereSemanticEqualSaysSo(t *testing.T) {
	at := api.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	base := func() *api.PodStatus {
		return &api.PodStatus{
			Phase: api.PodRunning, PodIP: "10.244.1.2", PodIPs: []api.PodIP{{IP: "10.244.1.2"}}, StartTime: &at,
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: at}},
			ContainerStatuses: []api.ContainerStatus{{Name: "web", Ready: true, RestartCount: 1, ContainerID: "containerd://1",
				Started: api.Ptr(true), State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at}}}},
		}
	}
	variants := []func(*api.PodStatus){
		func(*api.PodStatus) {},
		func(s *api.PodStatus) { s.Phase = api.PodPending },
		func(s *api.PodStatus) { s.PodIP = "" },
		func(s *api.PodStatus) { s.PodIPs = nil },
		func(s *api.PodStatus) { s.StartTime = nil },
		func(s *api.PodStatus) { s.Conditions = nil },
		func(s *api.PodStatus) { s.Conditions[0].Status = api.ConditionFalse },
		func(s *api.PodStatus) { s.Conditions[0].Reason = "ContainersNotReady" },
		func(s *api.PodStatus) { s.Conditions[0].Message = "containers with unready status: [web]" },
		func(s *api.PodStatus) { s.Conditions[0].LastTransitionTime = api.NewTime(at.Add(time.Second)) },
		func(s *api.PodStatus) { s.ContainerStatuses[0].Ready = false },
		func(s *api.PodStatus) { s.ContainerStatuses[0].RestartCount = 2 },
		func(s *api.PodStatus) { s.ContainerStatuses[0].ContainerID = "containerd://2" },
		func(s *api.PodStatus) { s.ContainerStatuses[0].Started = nil },
		func(s *api.PodStatus) { s.ContainerStatuses[0].Started = api.Ptr(false) },
		func(s *api.PodStatus) {
			s.ContainerStatuses[0].State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		},
		func(s *api.PodStatus) {
			s.ContainerStatuses[0].State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1}}
		},
		func(s *api.PodStatus) {
			s.ContainerStatuses[0].State.Running.StartedAt = api.NewTime(at.Add(time.Second))
		},
		func(s *api.PodStatus) { s.InitContainerStatuses = []api.ContainerStatus{{Name: "init"}} },
		func(s *api.PodStatus) {
			s.ContainerStatuses = append(s.ContainerStatuses, api.ContainerStatus{Name: "side"})
		},
	}
	said := 0
	for i, vi := range variants {
		for j, vj := range variants {
			a, b := base(), base()
			vi(a)
			vj(b)
			if statusesDiffer(a, b) {
				said++
				assert.False(t, semanticEqual(*a, *b), "variants %d and %d", i, j)
			}
			if i == j {
				assert.False(t, statusesDiffer(a, b), "variant %d with itself", i)
			}
		}
	}
	assert.Greater(t, said, len(variants)*len(variants)/2, "it sees most differences")
	empty := base()
	empty.InitContainerStatuses = []api.ContainerStatus{}
	assert.False(t, statusesDiffer(base(), empty), "nil and empty alike")
}

// ranking.go: which pods a ReplicaSet deletes first when it has too many (Kubernetes'
// ActivePodsWithRanks in pkg/controller/controller_utils.go). The least useful pods go first, so
// that scaling down costs as little serving capacity as possible:
//
//  1. not yet scheduled before scheduled;
//  2. Pending before Unknown before Running;
//  3. not ready before ready;
//  4. ready for less time before ready for longer;
//  5. more container restarts before fewer;
//  6. newer before older.
//
// Kubernetes also ranks by the controller.kubernetes.io/pod-deletion-cost annotation (between 3 and
// 4) and prefers pods doubled up on a node with other pods of the same workload; kubesim leaves both
// out, compares times exactly (not in the logarithmic buckets of the LogarithmicScaleDown feature) and
// breaks the remaining ties by name, so the choice is deterministic.
//
//	podsToDelete(pods, n) []*api.Pod; describeForDeletion(pod) string
package replicaset

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/controllers/internal"
)

// podPhaseOrdinal orders phases by how little a pod in them serves: Pending first.
var podPhaseOrdinal = map[api.PodPhase]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}

// podsToDelete returns the n pods to delete, most deletable first.
func podsToDelete(pods []*api.Pod, n int) []*api.Pod {
	ranked := slices.Clone(pods)
	slices.SortStableFunc(ranked, func(a, b *api.Pod) int {
		switch {
		case deleteBefore(a, b):
			return -1
		case deleteBefore(b, a):
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return ranked[:min(n, len(ranked))]
}

// deleteBefore reports whether a is a better pod to delete than b.
func deleteBefore(a, b *api.Pod) bool {
	// 1. Unassigned < assigned.
	if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	// 2. Pending < Unknown < Running.
	if pa, pb := podPhaseOrdinal[a.Status.Phase], podPhaseOrdinal[b.Status.Phase]; pa != pb {
		return pa < pb
	}
	// 3. Not ready < ready.
	readyA, readyB := internal.IsPodReady(a), internal.IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	// 4. Ready for a shorter time < ready for longer.
	if readyA && readyB {
		ta, tb := readyTime(a), readyTime(b)
		if !ta.Equal(tb) {
			return afterOrZero(ta, tb)
		}
	}
	// 5. More restarts < fewer.
	if ra, rb := maxRestarts(a), maxRestarts(b); ra != rb {
		return ra > rb
	}
	// 6. Newer < older.
	if ta, tb := a.CreationTimestamp.Time, b.CreationTimestamp.Time; !ta.Equal(tb) {
		return afterOrZero(ta, tb)
	}
	return false
}

// afterOrZero orders times newest first, with a missing time before any.
func afterOrZero(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero()
	}
	return a.After(b)
}

func readyTime(pod *api.Pod) time.Time {
	if c := internal.PodReadyCondition(pod); c != nil {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

func maxRestarts(pod *api.Pod) int32 {
	var n int32
	for _, cs := range pod.Status.ContainerStatuses {
		n = max(n, cs.RestartCount)
	}
	return n
}

// describeForDeletion says, for the trace, what ranked a pod for deletion:
// "nginx-6d4cf56db6-x2k9p (unassigned, Pending, not ready)".
func describeForDeletion(pod *api.Pod) string {
	node := "on " + pod.Spec.NodeName
	if pod.Spec.NodeName == "" {
		node = "unassigned"
	}
	phase := string(pod.Status.Phase)
	if phase == "" {
		phase = string(api.PodPending)
	}
	ready := "not ready"
	if internal.IsPodReady(pod) {
		ready = "ready"
	}
	s := fmt.Sprintf("%s (%s, %s, %s", pod.Name, node, phase, ready)
	if r := maxRestarts(pod); r > 0 {
		s += fmt.Sprintf(", %d restarts", r)
	}
	return s + ")"
}

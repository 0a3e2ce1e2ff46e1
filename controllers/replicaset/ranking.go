// ranking.go: which pods a ReplicaSet deletes first when it has too many (getPodsToDelete in
// pkg/controller/replicaset/replica_set.go and ActivePodsWithRanks in
// pkg/controller/controller_utils.go, Kubernetes v1.34). The least useful pods go first, so that
// scaling down costs as little serving capacity as possible:
//
//  1. not yet scheduled before scheduled;
//  2. Pending before Unknown before Running;
//  3. not ready before ready;
//  4. lower controller.kubernetes.io/pod-deletion-cost before higher (the annotation lets an operator
//     say which pods are cheap to lose; absent or invalid means 0);
//  5. doubled up before alone: a pod's rank is the number of active pods of the same workload (every
//     ReplicaSet with the same controller, the Deployment's old and new ones) on its node, and the
//     higher rank goes first, so the workload ends spread over more nodes;
//  6. ready for less time before ready for longer, compared in logarithmic buckets
//     (LogarithmicScaleDown, on by default since 1.22 and GA in 1.31): the times count as equal when
//     floor(log2(nanoseconds since then)) is, and then the pod with the smaller UID goes first, so a
//     scale-down does not always pick the very newest pod;
//  7. more container restarts before fewer;
//  8. created later before created earlier, in the same buckets, ties again by UID.
//
// Two pods equal in every respect are left in no particular order by Kubernetes' sort; kubesim puts
// the smaller UID first, so that a scenario deletes the same pods every run.
//
//	podsToDelete(pods, related, n, now) []*api.Pod
//	(*Controller).relatedPods(rs) []*api.Pod
//	describeForDeletion(pod) string
package replicaset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/controllers/internal"
)

// annotationPodDeletionCost is the annotation that tells a ReplicaSet which pods to delete first.
const annotationPodDeletionCost = "controller.kubernetes.io/pod-deletion-cost"

// podPhaseOrdinal orders phases by how little a pod in them serves: Pending first.
var podPhaseOrdinal = map[api.PodPhase]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}

// rankedPod is a pod with its rank: how many active pods of the same workload share its node.
type rankedPod struct {
	pod  *api.Pod
	rank int
}

// podsToDelete returns the n pods to delete, most deletable first. related are the pods of the
// workload (relatedPods); now is the controller's clock, against which ages are bucketed.
func podsToDelete(pods, related []*api.Pod, n int, now time.Time) []*api.Pod {
	onNode := map[string]int{}
	for _, p := range related {
		if internal.IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	ranked := make([]rankedPod, len(pods))
	for i, p := range pods {
		ranked[i] = rankedPod{pod: p, rank: onNode[p.Spec.NodeName]}
	}
	slices.SortStableFunc(ranked, func(a, b rankedPod) int {
		switch {
		case deleteBefore(a, b, now):
			return -1
		case deleteBefore(b, a, now):
			return 1
		}
		return strings.Compare(a.pod.UID, b.pod.UID)
	})
	out := make([]*api.Pod, 0, min(n, len(ranked)))
	for _, r := range ranked[:min(n, len(ranked))] {
		out = append(out, r.pod)
	}
	return out
}

// deleteBefore reports whether a is a better pod to delete than b (ActivePodsWithRanks.Less).
func deleteBefore(ra, rb rankedPod, now time.Time) bool {
	a, b := ra.pod, rb.pod
	// 1. Unassigned < assigned.
	if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	// 2. Pending < Unknown < Running.
	if pa, pb := podPhaseOrdinal[a.Status.Phase], podPhaseOrdinal[b.Status.Phase]; pa != pb {
		return pa < pb
	}
	// 3. Not ready < ready.
	readyA, readyB := api.IsPodReady(a), api.IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	// 4. Lower deletion cost < higher.
	if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
		return ca < cb
	}
	// 5. Doubled up < alone.
	if ra.rank != rb.rank {
		return ra.rank > rb.rank
	}
	// 6. Ready for a shorter time < ready for longer, in logarithmic buckets.
	if readyA && readyB {
		if ta, tb := readyTime(a), readyTime(b); !ta.Equal(tb) {
			return newerInBuckets(a, b, ta, tb, now)
		}
	}
	// 7. More restarts < fewer.
	if ra, rb := maxRestarts(a), maxRestarts(b); ra != rb {
		return ra > rb
	}
	// 8. Newer < older, in logarithmic buckets.
	if ta, tb := a.CreationTimestamp.Time, b.CreationTimestamp.Time; !ta.Equal(tb) {
		return newerInBuckets(a, b, ta, tb, now)
	}
	return false
}

// newerInBuckets orders two different times newest first, in LogarithmicScaleDown's buckets: equal
// buckets fall back to the UIDs. A missing time (or clock) compares exactly.
func newerInBuckets(a, b *api.Pod, ta, tb, now time.Time) bool {
	if now.IsZero() || ta.IsZero() || tb.IsZero() {
		return afterOrZero(ta, tb)
	}
	if da, db := ageBucket(now.Sub(ta)), ageBucket(now.Sub(tb)); da != db {
		return da < db
	}
	return a.UID < b.UID
}

// ageBucket is floor(log2(age in nanoseconds)), -1 for an age that is not positive.
func ageBucket(age time.Duration) int64 {
	if age <= 0 {
		return -1
	}
	return int64(math.Log2(float64(age)))
}

// afterOrZero orders times newest first, with a missing time before any.
func afterOrZero(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero()
	}
	return a.After(b)
}

// deletionCost reads the pod-deletion-cost annotation: a 32-bit integer that starts with a minus
// sign, a non-zero digit, or is "0"; anything else ("+5", "007", "x") counts as 0, as in Kubernetes.
func deletionCost(pod *api.Pod) int32 {
	v, ok := pod.Annotations[annotationPodDeletionCost]
	if !ok || v == "" || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

func readyTime(pod *api.Pod) time.Time {
	if c := api.GetPodCondition(pod, api.PodReady); c != nil && c.Status == api.ConditionTrue {
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

// relatedPods are the pods of every ReplicaSet that has the same controller as rs, each once
// (getIndirectlyRelatedPods): for a Deployment's ReplicaSet, all the Deployment's pods. A ReplicaSet
// without a controller has none, so its pods all rank 0.
func (c *Controller) relatedPods(rs *api.ReplicaSet) []*api.Pod {
	ref := rs.ControllerRef()
	if ref == nil {
		return nil
	}
	var selectors []labels.Selector
	for _, other := range c.rsInformer.List() {
		if r := other.ControllerRef(); r == nil || r.UID != ref.UID || other.Namespace != rs.Namespace {
			continue
		}
		if sel, err := other.Spec.Selector.AsSelector(); err == nil {
			selectors = append(selectors, sel)
		}
	}
	var out []*api.Pod
	for _, p := range c.podInformer.List() {
		if p.Namespace != rs.Namespace {
			continue
		}
		for _, sel := range selectors {
			if sel.Matches(labels.Set(p.Labels)) {
				out = append(out, p) // each pod once, however many selectors match it
				break
			}
		}
	}
	return out
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
	if api.IsPodReady(pod) {
		ready = "ready"
	}
	s := fmt.Sprintf("%s (%s, %s, %s", pod.Name, node, phase, ready)
	if cost := deletionCost(pod); cost != 0 {
		s += fmt.Sprintf(", deletion cost %d", cost)
	}
	if r := maxRestarts(pod); r > 0 {
		s += fmt.Sprintf(", %d restarts", r)
	}
	return s + ")"
}

// util.go: the arithmetic of a rollout (pkg/controller/deployment/util in Kubernetes): maxSurge and
// maxUnavailable resolved against spec.replicas, replica sums over ReplicaSets, and the orders in
// which ReplicaSets are considered.
package deployment

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"kubesim/api"
)

// resolveFenceposts turns maxSurge and maxUnavailable into pod counts for desired replicas: surge
// rounds up, unavailable rounds down (so 25% of 3 is a surge of 1 and no unavailability). If both come
// out 0 the rollout could never move, so unavailable becomes 1.
func resolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32) {
	var zero api.IntOrString
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	// Validation has already rejected values that do not parse.
	surge, _ := maxSurge.ScaledValue(int(desired), true)
	unavailable, _ := maxUnavailable.ScaledValue(int(desired), false)
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable)
}

func isRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType && d.Spec.Strategy.RollingUpdate != nil
}

// maxSurge is how many pods above spec.replicas a rolling update may run (0 for Recreate).
func maxSurge(d *api.Deployment) int32 {
	if !isRollingUpdate(d) {
		return 0
	}
	surge, _ := resolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, replicasOf(d))
	return surge
}

// maxUnavailable is how many pods below spec.replicas a rolling update may leave unavailable.
func maxUnavailable(d *api.Deployment) int32 {
	if !isRollingUpdate(d) || replicasOf(d) == 0 {
		return 0
	}
	_, unavailable := resolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, replicasOf(d))
	return min(unavailable, replicasOf(d))
}

func replicasOf(d *api.Deployment) int32 { return api.Deref(d.Spec.Replicas, 1) }

func rsReplicas(rs *api.ReplicaSet) int32 { return api.Deref(rs.Spec.Replicas, 1) }

// sumReplicas adds up spec.replicas: the pods the ReplicaSets have been told to run.
func sumReplicas(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += rsReplicas(rs)
	}
	return n
}

// sumStatus adds up one status field: the pods the ReplicaSets report.
func sumStatus(rss []*api.ReplicaSet, field func(*api.ReplicaSetStatus) int32) int32 {
	var n int32
	for _, rs := range rss {
		n += field(&rs.Status)
	}
	return n
}

func statusReplicas(s *api.ReplicaSetStatus) int32  { return s.Replicas }
func statusReady(s *api.ReplicaSetStatus) int32     { return s.ReadyReplicas }
func statusAvailable(s *api.ReplicaSetStatus) int32 { return s.AvailableReplicas }

// filterActive keeps the ReplicaSets that should have pods.
func filterActive(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// withNew is oldRSs followed by newRS, if there is one.
func withNew(oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet) []*api.ReplicaSet {
	all := slices.Clone(oldRSs)
	if newRS != nil {
		all = append(all, newRS)
	}
	return all
}

// byCreation orders ReplicaSets oldest first, by name on ties (ReplicaSetsByCreationTimestamp).
func byCreation(a, b *api.ReplicaSet) int {
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// bySizeOlder orders the largest first, the older on ties (ReplicaSetsBySizeOlder): where a scale-down
// takes pods from.
func bySizeOlder(a, b *api.ReplicaSet) int {
	if c := cmp.Compare(rsReplicas(b), rsReplicas(a)); c != 0 {
		return c
	}
	return byCreation(a, b)
}

// bySizeNewer orders the largest first, the newer on ties (ReplicaSetsBySizeNewer): where a scale-up
// puts pods.
func bySizeNewer(a, b *api.ReplicaSet) int {
	if c := cmp.Compare(rsReplicas(b), rsReplicas(a)); c != 0 {
		return c
	}
	return byCreation(b, a)
}

// revision is a ReplicaSet's deployment.kubernetes.io/revision, 0 if unset.
func revision(rs *api.ReplicaSet) int64 {
	v, err := strconv.ParseInt(rs.Annotations[api.RevisionAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// byRevision orders ReplicaSets oldest revision first (ReplicaSetsByRevision).
func byRevision(a, b *api.ReplicaSet) int {
	if c := cmp.Compare(revision(a), revision(b)); c != 0 {
		return c
	}
	return byCreation(a, b)
}

// maxRevision is the highest revision among rss.
func maxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		m = max(m, revision(rs))
	}
	return m
}

package replicaset_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
)

// BenchmarkReconcile10000Pods: one Reconcile of a ReplicaSet that has all its 10,000 pods, with
// nothing to write: what a pod status change costs the controller during a large rollout (it claims
// the pods and counts them again; batch.go says how often that may happen). Compare ns/op between
// commits in the same run: a busy machine inflates it.
func BenchmarkReconcile10000Pods(b *testing.B) {
	const n = 10000
	c, ctx := testenv.Cluster(b, testenv.Step)
	rsc, err := startController(ctx, c)
	require.NoError(b, err)
	replicaSets := client.For[api.ReplicaSet](c.Kubectl.Client())
	rs, err := replicaSets.Create(ctx, newReplicaSet(n))
	require.NoError(b, err)
	require.NoError(b, c.Driver.RunUntil(ctx, "10,000 pods counted", func() (bool, error) {
		got, err := replicaSets.Get(ctx, rs.Namespace, rs.Name)
		return err == nil && got.Status.Replicas == n, err
	}, 1000))
	require.NoError(b, c.Driver.Advance(ctx, 0))
	key := rs.Key()
	b.ResetTimer()
	for b.Loop() {
		require.NoError(b, rsc.Reconcile(ctx, key))
	}
}

package replicaset_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
)

// BenchmarkReconcile10000Pods: one Reconcile of a ReplicaSet that has all its 10,000 pods, with
// nothing to write: what every pod status change costs the controller during a large rollout (it
// claims the pods and counts them again). cpu-ns/op is the process's CPU time per Reconcile, which a
// busy machine inflates less than ns/op; compare either between commits in the same run.
func BenchmarkReconcile10000Pods(b *testing.B) {
	const n = 10000
	c, ctx := testenv.Cluster(b, testenv.Step)
	rsc, err := startController(ctx, c)
	require.NoError(b, err)
	rs, err := client.For[api.ReplicaSet](c.Kubectl.Client()).Create(ctx, newReplicaSet(n))
	require.NoError(b, err)
	require.NoError(b, c.Driver.RunUntil(ctx, "10,000 pods counted", func() (bool, error) {
		got, err := client.For[api.ReplicaSet](c.Kubectl.Client()).Get(ctx, rs.Namespace, rs.Name)
		return err == nil && got.Status.Replicas == n, err
	}, 1000))
	require.NoError(b, c.Driver.Advance(ctx, 0))
	key := rs.Key()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		require.NoError(b, rsc.Reconcile(ctx, key))
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

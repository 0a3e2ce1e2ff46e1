package apiserver

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/clock"
	"kubesim/store"
)

// BenchmarkCreatePathVersusRawPut measures the whole create path (authenticate, RBAC, admission,
// validation, persist, watch cache) against a raw etcd put loop on the same etcd in the same run, both
// at 16 concurrent clients, and reports the ratio: the share of raw etcd throughput the pipeline keeps.
func BenchmarkCreatePathVersusRawPut(b *testing.B) {
	const clients = 16
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	require.NoError(b, err)
	defer st.Close()
	s := New(Config{Store: st, Clock: clock.Real{}, Seed: 1})
	require.NoError(b, s.Start(ctx))
	// An RBAC-authorised identity, so the benchmark pays for the authorizer like a controller does.
	s.AddCredential(Credential{Token: "cm", User: User{Name: "system:kube-controller-manager"}})

	pod := nginxPod("")
	pod.GenerateName = "bench-"
	val, err := encode(pod)
	require.NoError(b, err)

	run := func(n int, op func(i int) error) time.Duration {
		var next atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1))
					if i > n {
						return
					}
					if err := op(i); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	// Alternate rounds of each so that both see the same machine (other processes, GC, etcd's own
	// compaction) and the ratio is fair.
	const rounds = 4
	var raw, pipeline time.Duration
	b.ResetTimer()
	for r := 0; r < rounds; r++ {
		n := b.N / rounds
		if r == rounds-1 {
			n = b.N - n*(rounds-1)
		}
		raw += run(n, func(i int) error {
			_, err := st.Create(ctx, fmt.Sprintf("/bench/raw/%d/%d", r, i), val)
			return err
		})
		pipeline += run(n, func(i int) error {
			_, err := s.Do(ctx, &Request{Token: "cm", Verb: VerbCreate, Resource: "pods", Namespace: "default", Body: pod})
			return err
		})
	}
	b.StopTimer()
	rawRate := float64(b.N) / raw.Seconds()
	pipeRate := float64(b.N) / pipeline.Seconds()
	b.ReportMetric(rawRate, "raw-puts/s")
	b.ReportMetric(pipeRate, "creates/s")
	b.ReportMetric(pipeRate/rawRate, "pipeline/raw")
}

// BenchmarkWatchFanOut measures delivering pod changes to many node-filtered watchers (one per
// kubelet): each change reaches only the watchers of its node, so the cost per change must not grow
// with the number of watchers.
func BenchmarkWatchFanOut(b *testing.B) {
	for _, watchers := range []int{10, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			c := newWatchCache(defaultWindow)
			res, _ := api.ResourceFor("pods")
			rc := c.resources[res.Name]
			for i := 0; i < watchers; i++ {
				sel, err := newSelection(res, "", "", fmt.Sprintf("spec.nodeName=node-%d", i))
				require.NoError(b, err)
				_, err = c.watch(res, sel, nil, false)
				require.NoError(b, err)
			}
			p := nginxPod("p")
			p.Spec.NodeName = "node-0"
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.mu.Lock()
				rc.dispatch(cacheEvent{rev: int64(i), key: "default/p", obj: p, prev: p})
				c.mu.Unlock()
			}
		})
	}
}

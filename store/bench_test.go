// BenchmarkRawPut is the baseline for kubesim's other benchmarks: the cost
// of one etcd write with nothing of Kubernetes around it. A benchmark of an
// apiserver create or a scheduling cycle reports its ratio to this number,
// measured in the same run on the same machine.

package store_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"kubesim/store"
)

// benchValue is about the size of a small pod's JSON.
var benchValue = `{"kind":"Pod","apiVersion":"v1","spec":` + strings.Repeat(`{"x":"0123456789"}`, 40) + `}`

func BenchmarkRawPut(b *testing.B) {
	s := openStore(b, store.Config{})
	client := s.Client()
	ctx := context.Background()
	var n atomic.Int64

	b.Run("sequential", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchValue)))
		for b.Loop() {
			if _, err := client.Put(ctx, fmt.Sprintf("/bench/%d", n.Add(1)), benchValue); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchValue)))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := client.Put(ctx, fmt.Sprintf("/bench/%d", n.Add(1)), benchValue); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkWatchedCreate is what a watcher of the written keys adds to a create: creates from 16
// clients under a prefix nobody watches, then under one a reader watches without previous values
// (as the apiserver's watch cache reads /registry/), draining every event. The process's CPU per
// create is the figure; the difference between the two is the watch's cost.
func BenchmarkWatchedCreate(b *testing.B) {
	for _, watched := range []bool{false, true} {
		b.Run(fmt.Sprintf("watched=%v", watched), func(b *testing.B) {
			s := openStore(b, store.Config{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var seen atomic.Int64
			done := make(chan struct{})
			if watched {
				w := s.Watch(ctx, "/w/", 0, store.WithoutPrevious())
				go func() {
					defer close(done)
					for batch := range w.Events() {
						seen.Add(int64(len(batch)))
					}
				}()
			} else {
				close(done)
			}
			var n atomic.Int64
			b.ReportAllocs()
			b.SetParallelism(8) // 16 clients on 2 cores
			start := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := s.Create(ctx, fmt.Sprintf("/w/%d", n.Add(1)), []byte(benchValue)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			if watched {
				for seen.Load() < n.Load() {
					runtime.Gosched()
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(time.Microsecond)/float64(b.N), "cpu-µs/create")
			cancel()
			<-done
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

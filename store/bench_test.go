// BenchmarkRawPut is the baseline for kubesim's other benchmarks: the cost
// of one etcd write with nothing of Kubernetes around it. A benchmark of an
// apiserver create or a scheduling cycle reports its ratio to this number,
// measured in the same run on the same machine.

package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

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

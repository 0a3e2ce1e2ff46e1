// BenchmarkClusterWrite measures what replication costs: writes to a cluster of 1, 3 and 5 members,
// each beside the raw etcd put loop on the same cluster in the same run, so the ratio of the two is
// the store's own overhead (a transaction that compares the key's revision, counters) and the ratio
// across member counts is Raft's (a write waits for a quorum of members to append it).
//
//	go test ./store -run '^$' -bench ClusterWrite
//
// Each sub-benchmark reports ns/op (the mean latency of one write, sequential), writes/s, and the
// median and 99th-percentile latency. The members run in temporary directories, so without fsync:
// the figures are Raft's network round trips in one process, not a disk's.

package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"kubesim/store"
)

func BenchmarkClusterWrite(b *testing.B) {
	ctx := context.Background()
	for _, members := range []int{1, 3, 5} {
		s := openStore(b, store.Config{Members: members})
		client := s.Client()
		n := 0
		b.Run(fmt.Sprintf("members=%d/raw-put", members), func(b *testing.B) {
			measureWrites(b, func() error {
				n++
				_, err := client.Put(ctx, fmt.Sprintf("/bench/raw/%d", n), benchValue)
				return err
			})
		})
		b.Run(fmt.Sprintf("members=%d/store-create", members), func(b *testing.B) {
			measureWrites(b, func() error {
				n++
				_, err := s.Create(ctx, fmt.Sprintf("/bench/store/%d", n), []byte(benchValue))
				return err
			})
		})
	}
}

// measureWrites runs write b.N times in a row and reports throughput and latency percentiles.
func measureWrites(b *testing.B, write func() error) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchValue)))
	var lat []time.Duration
	start := time.Now()
	for b.Loop() {
		t := time.Now()
		if err := write(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	b.ReportMetric(float64(len(lat))/time.Since(start).Seconds(), "writes/s")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// memory.go: what the peak resident memory is made of. Peak RSS alone does not say whether a
// benchmark's memory is live data, garbage the collector has not reached yet, heap the runtime has
// freed but kept, goroutine stacks, or file pages mapped into the process (the binary, etcd's bbolt
// database); memorySampler reads the kernel's and the Go runtime's accounts side by side while a
// benchmark runs and keeps the reading taken when the process was largest.
package bench

import (
	"bufio"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MemorySample is one reading of the process's memory, in bytes.
type MemorySample struct {
	RSS, RSSAnon, RSSFile int64 // /proc/self/status: VmRSS, RssAnon, RssFile (+RssShmem)
	// The Go runtime's view (runtime/metrics' /memory/classes/...): HeapObjects is the heap in
	// objects, live or dead but not yet swept; HeapLive is what the last GC found live; HeapGoal is
	// the size at which the next GC starts (GOGC: live x (1 + GOGC/100)); HeapFree is heap freed but
	// not returned to the OS, HeapUnused is room in spans not yet used by objects; Stacks are
	// goroutine stacks; Runtime is the rest the runtime keeps (metadata, buffers).
	HeapObjects, HeapLive, HeapGoal, HeapFree, HeapUnused, Stacks, Runtime int64
}

func (s MemorySample) String() string {
	mib := func(b int64) int64 { return b >> 20 }
	return fmt.Sprintf("RSS %d MiB (anonymous %d, file %d); heap objects %d MiB (live at the last GC %d, goal %d), free %d, unused %d, stacks %d, runtime %d",
		mib(s.RSS), mib(s.RSSAnon), mib(s.RSSFile), mib(s.HeapObjects), mib(s.HeapLive), mib(s.HeapGoal),
		mib(s.HeapFree), mib(s.HeapUnused), mib(s.Stacks), mib(s.Runtime))
}

// readMemory takes one reading: the kernel's figures from /proc/self/status (zero where there is
// no /proc), the runtime's from runtime/metrics.
func readMemory() MemorySample {
	var s MemorySample
	if f, err := os.Open("/proc/self/status"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			name, value, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "kB")), 10, 64)
			switch name {
			case "VmRSS":
				s.RSS = kb << 10
			case "RssAnon":
				s.RSSAnon = kb << 10
			case "RssFile", "RssShmem":
				s.RSSFile += kb << 10
			}
		}
		f.Close()
	}
	ms := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/stacks:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(ms)
	v := func(i int) int64 {
		if ms[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(ms[i].Value.Uint64())
	}
	s.HeapObjects, s.HeapLive, s.HeapGoal, s.HeapFree, s.HeapUnused, s.Stacks = v(0), v(1), v(2), v(3), v(4), v(5)
	s.Runtime = v(6) - v(7) - s.HeapObjects - s.HeapFree - s.HeapUnused - s.Stacks
	return s
}

// memorySampler reads the process's memory every interval until stopped, and keeps the reading
// with the largest RSS and the largest live heap any GC found.
type memorySampler struct {
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}

	mu      sync.Mutex   // guards peak and maxLive
	peak    MemorySample // the reading with the largest RSS
	maxLive int64        // the largest HeapLive seen
}

func startMemorySampler(interval time.Duration) *memorySampler {
	m := &memorySampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			m.observe(readMemory())
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

func (m *memorySampler) observe(s MemorySample) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.RSS > m.peak.RSS {
		m.peak = s
	}
	m.maxLive = max(m.maxLive, s.HeapLive)
}

// Stop ends the sampling (a second Stop only reads) and returns the reading at the largest RSS and
// the largest live heap.
func (m *memorySampler) Stop() (peak MemorySample, maxLive int64) {
	m.stopOnce.Do(func() { close(m.stop) })
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak, m.maxLive
}

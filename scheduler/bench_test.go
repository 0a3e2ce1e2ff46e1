// bench_test.go: the scheduling algorithm's throughput, in the shape of scheduler_perf's
// SchedulingBasic (nodes with 4 cpu, 32Gi, 110 pods; pods requesting 100m cpu and 500Mi): the pods
// are all queued before the clock starts, and binding goes to a no-op binder, so what is measured is
// the queue, the cache and the plugins, with no apiserver. bench_e2e_test.go measures the same
// through the apiserver and etcd.
package scheduler

import (
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/clock"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

// noopBinder binds nothing; if bound is set, it keeps the pods it was asked to bind there (each an
// assumed pod, with spec.nodeName set), so that the benchmark can play what follows a binding.
type noopBinder struct{ bound *[]*api.Pod }

func (noopBinder) Name() string { return "NoopBinder" }
func (b noopBinder) Bind(_ context.Context, _ *framework.CycleState, pod *api.Pod, _ string) *framework.Status {
	if b.bound != nil {
		*b.bound = append(*b.bound, pod)
	}
	return nil
}

func perfNode(i int) *api.Node {
	alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"), resource.ResourceMemory: resource.MustParse("32Gi"),
		resource.ResourcePods: resource.MustParse("110")}
	name := fmt.Sprintf("node-%05d", i)
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
		Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc}}
}

func perfPod(i int) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i), Namespace: "default", UID: fmt.Sprintf("uid-%05d", i)},
		Spec: api.PodSpec{SchedulerName: api.DefaultSchedulerName, Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10",
			Resources: api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m"),
				resource.ResourceMemory: resource.MustParse("500Mi")}}}}}}
}

// perfReplicaSetPod is perfPod owned by the ReplicaSet perfReplicaSet(i/perReplicaSet), so that the
// system default topology spread constraints apply to it.
func perfReplicaSetPod(i, perReplicaSet int) *api.Pod {
	p := perfPod(i)
	rs := perfReplicaSet(i / perReplicaSet)
	p.Labels = map[string]string{"app": rs.Name}
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: api.Ptr(true)}}
	return p
}

func perfReplicaSet(i int) *api.ReplicaSet {
	name := fmt.Sprintf("web-%03d", i)
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}}}}
}

// perfWorkload shapes a benchmark's cluster beyond SchedulingBasic: perReplicaSet > 0 puts the pods
// in ReplicaSets of that many, and the nodes in three zones. envelope instead shapes it as
// `kubesim bench envelope`'s cluster (envelopeWorkload). envelopeOf > 0 makes that cluster's
// workload envelopeOf pods, of which the benchmark schedules numPods from envelopeFrom on in queue
// order, after binding the others but the envelopeWarm before envelopeFrom round-robin to the nodes
// and scheduling those, all before the clock starts (the late part of the envelope: nodes with ~30
// pods each, of hundreds of ReplicaSets, whose questions to the nodes' pod counts have been asked once).
// statusWrites > 0 plays, after each pod's cycle, what the informer reports of it in a cluster: its
// binding (the assumed pod confirmed) and then statusWrites status writes (the kubelet's: the pod
// Running, then Ready), each of which makes its node's NodeInfo new.
type perfWorkload struct {
	perReplicaSet int
	envelope      bool
	envelopeOf    int
	envelopeFrom  int
	envelopeWarm  int
	statusWrites  int
}

// reportBound tells the cache what the informer would of the pods the binder was asked to bind
// since the last call (see perfWorkload.statusWrites), and empties bound.
func reportBound(s *Scheduler, bound *[]*api.Pod, statusWrites int) {
	for _, p := range *bound {
		p = api.DeepCopy(p)
		s.cache.AddPod(p)
		for i := range statusWrites {
			next := api.DeepCopy(p)
			ready := api.ConditionFalse
			if i == statusWrites-1 {
				ready = api.ConditionTrue
			}
			next.Status.Phase = api.PodRunning
			next.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: ready}}
			s.cache.UpdatePod(p, next)
			p = next
		}
	}
	*bound = (*bound)[:0]
}

// envelopeSizes are bench/envelope.go's Deployment sizes, repeated in turn.
var envelopeSizes = []int{1000, 300, 100, 30, 10, 3}

// envelopeWorkload is the cluster of `kubesim bench envelope` as the scheduler sees it: nodes
// without zone labels, each reporting the images a kubelet lists (the pause image and nine others),
// and the pods in ReplicaSets of the envelope's Deployment sizes, queued in bursts of 100 per
// ReplicaSet in turn (as several ReplicaSet controllers create at once), so that the pods of many
// ReplicaSets are scheduled interleaved. It returns the ReplicaSets and the pods in queue order.
func envelopeWorkload(numPods int) ([]*api.ReplicaSet, []*api.Pod) {
	var sets []*api.ReplicaSet
	var members [][]*api.Pod
	for i, left := 0, numPods; left > 0; i++ {
		size := min(envelopeSizes[i%len(envelopeSizes)], left)
		rs := perfReplicaSet(i)
		sets = append(sets, rs)
		var pods []*api.Pod
		for j := 0; j < size; j++ {
			p := perfPod(numPods - left + j)
			p.Labels = map[string]string{"app": rs.Name}
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: api.Ptr(true)}}
			pods = append(pods, p)
		}
		members = append(members, pods)
		left -= size
	}
	var queued []*api.Pod
	for len(queued) < numPods {
		for i := range members {
			n := min(100, len(members[i]))
			queued = append(queued, members[i][:n]...)
			members[i] = members[i][n:]
		}
	}
	return sets, queued
}

// envelopeNode is perfNode with the images a kubelet reports.
func envelopeNode(i int) *api.Node {
	n := perfNode(i)
	n.Status.Images = []api.ContainerImage{{Names: []string{"registry.k8s.io/pause:3.10"}, SizeBytes: 320 << 10}}
	for j := 1; j < 10; j++ {
		n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: []string{fmt.Sprintf("registry.example/app-%d:1.%d", j, i%3)}, SizeBytes: int64(j) << 24})
	}
	return n
}

func benchmarkAlgorithm(b *testing.B, numNodes, numPods, parallelism int) {
	b.ReportMetric(benchmarkWorkload(b, numNodes, numPods, parallelism, perfWorkload{}), "pods/s")
}

// benchmarkWorkload schedules numPods pods on numNodes nodes b.N times and returns the last run's
// pods per second.
func benchmarkWorkload(b *testing.B, numNodes, numPods, parallelism int, w perfWorkload) float64 {
	profile := plugins.DefaultProfile("")
	for i, ref := range profile.Plugins {
		if ref.Name == plugins.DefaultBinderName {
			profile.Plugins[i] = framework.PluginRef{Name: "NoopBinder"}
		}
	}
	ctx := context.Background()
	var rate float64
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		var bound []*api.Pod
		binder := noopBinder{}
		if w.statusWrites > 0 {
			binder.bound = &bound
		}
		s, err := newScheduler(Options{Clock: clock.NewVirtual(time.Unix(0, 0)), Seed: 1, Profiles: []framework.Profile{profile},
			OutOfTreeRegistry: framework.Registry{"NoopBinder": func(framework.Handle) (framework.Plugin, error) { return binder, nil }}})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range s.profiles {
			p.fwk.SetParallelism(parallelism)
		}
		fixed := &FixedCluster{}
		for i := 0; w.perReplicaSet > 0 && i*w.perReplicaSet < numPods; i++ {
			fixed.ReplicaSets = append(fixed.ReplicaSets, perfReplicaSet(i))
		}
		var queued, running []*api.Pod
		switch {
		case w.envelope && w.envelopeOf > 0:
			var all []*api.Pod
			fixed.ReplicaSets, all = envelopeWorkload(w.envelopeOf)
			queued = all[w.envelopeFrom-w.envelopeWarm : w.envelopeFrom+numPods]
			running = append(append(running, all[:w.envelopeFrom-w.envelopeWarm]...), all[w.envelopeFrom+numPods:]...)
		case w.envelope:
			fixed.ReplicaSets, queued = envelopeWorkload(numPods)
		}
		s.fixed = fixed
		for i := 0; i < numNodes; i++ {
			n := perfNode(i)
			switch {
			case w.envelope:
				n = envelopeNode(i)
			case w.perReplicaSet > 0:
				n.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", i%3)
			}
			s.cache.AddNode(n)
		}
		for i, p := range running {
			p = api.DeepCopy(p)
			p.Spec.NodeName = fmt.Sprintf("node-%05d", i%numNodes)
			s.cache.AddPod(p)
		}
		for i := range max(len(queued), numPods) {
			switch {
			case w.envelope:
				s.queue.Add(queued[i])
			case w.perReplicaSet > 0:
				s.queue.Add(perfReplicaSetPod(i, w.perReplicaSet))
			default:
				s.queue.Add(perfPod(i))
			}
		}
		// Under its own profiler label: `go tool pprof -tagignore phase=warm` leaves it out.
		pprof.Do(ctx, pprof.Labels("phase", "warm"), func(ctx context.Context) {
			for range w.envelopeWarm {
				pi, _ := s.queue.Pop()
				s.scheduleOne(ctx, pi)
				reportBound(s, &bound, w.statusWrites)
			}
		})
		b.StartTimer()
		start := time.Now()
		for {
			pi, ok := s.queue.Pop()
			if !ok {
				break
			}
			s.scheduleOne(ctx, pi)
			reportBound(s, &bound, w.statusWrites)
		}
		rate = float64(numPods) / time.Since(start).Seconds()
		if got, want := s.cache.PodCount(), numPods+w.envelopeWarm+len(running); got != want {
			b.Fatalf("%d pods in the cache, want %d", got, want)
		}
	}
	return rate
}

func BenchmarkSchedulingBasicAlgorithm(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{500, 1000}, {5000, 10000}} {
		for _, par := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%dNodes/%dPods/parallelism-%d", size.nodes, size.pods, par), func(b *testing.B) {
				benchmarkAlgorithm(b, size.nodes, size.pods, par)
			})
		}
	}
}

// BenchmarkSchedulingBasicReplicaSets is SchedulingBasic with the pods in ReplicaSets of 1,000 (as
// a Deployment's) on nodes in three zones: every pod gets the default spread constraints, so each
// cycle asks every node how many siblings it runs. It runs each shape twice, first counting afresh
// on every node in every cycle (as Kubernetes does; the baseline), then with the NodeInfos' counts
// by pod class, and reports both rates and their ratio (x-fresh).
func BenchmarkSchedulingBasicReplicaSets(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{500, 1000}, {5000, 10000}} {
		for _, par := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%dNodes/%dPods/parallelism-%d", size.nodes, size.pods, par), func(b *testing.B) {
				w := perfWorkload{perReplicaSet: 1000}
				defer framework.SetPodCountMemo(framework.SetPodCountMemo(true))
				// Each run under its own profiler label: `go tool pprof -tagfocus podcounts=memo` shows one.
				run := func(label string, memo bool) (rate float64) {
					framework.SetPodCountMemo(memo)
					pprof.Do(context.Background(), pprof.Labels("podcounts", label), func(context.Context) {
						rate = benchmarkWorkload(b, size.nodes, size.pods, par, w)
					})
					return rate
				}
				fresh := run("fresh", false)
				memo := run("memo", true)
				b.ReportMetric(fresh, "pods/s-fresh")
				b.ReportMetric(memo, "pods/s")
				b.ReportMetric(memo/fresh, "x-fresh")
			})
		}
	}
}

// BenchmarkSchedulingEnvelopeShape is the scheduler's part of `kubesim bench envelope` without the
// rest of the cluster (envelopeWorkload): nodes with images and no zones, pods of many ReplicaSets
// interleaved, at the envelope's 1,000 nodes and at 5,000.
func BenchmarkSchedulingEnvelopeShape(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{1000, 10000}, {5000, 10000}} {
		for _, par := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%dNodes/%dPods/parallelism-%d", size.nodes, size.pods, par), func(b *testing.B) {
				b.ReportMetric(benchmarkWorkload(b, size.nodes, size.pods, par, perfWorkload{envelope: true}), "pods/s")
			})
		}
	}
}

// BenchmarkSchedulingEnvelopeLate is the full envelope's scheduler late in its run (issue 17):
// 5,000 nodes running the 150,000 pods of its 621 ReplicaSets but 30,800 (28 pods each), of which
// 20,800 (its queue's second round of bursts: 100 pods of each of 208 ReplicaSets in turn) are
// scheduled before the clock starts and 10,000 (the start of its third round) after, so that a node
// is asked about a different ReplicaSet every few cycles and about the same one again only after
// the 200 others. It reports pods/s and the time per cycle. It runs twice: binds only (binds), and
// with each bound pod confirmed and written twice after its cycle (status-writes), as the kubelet's
// status writes make a node's NodeInfo new about three times per pod in the envelope.
func BenchmarkSchedulingEnvelopeLate(b *testing.B) {
	for _, run := range []struct {
		name   string
		writes int
	}{{"binds", 0}, {"status-writes", 2}} {
		b.Run(run.name, func(b *testing.B) {
			rate := benchmarkWorkload(b, 5000, 10000, 1, perfWorkload{envelope: true, envelopeOf: 150000, envelopeFrom: 56400, envelopeWarm: 20800,
				statusWrites: run.writes})
			b.ReportMetric(rate, "pods/s")
			b.ReportMetric(1e6/rate, "µs/cycle")
		})
	}
}

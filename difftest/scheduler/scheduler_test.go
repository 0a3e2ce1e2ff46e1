package scheduler

import (
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/scheduler"
)

// simOutcome runs the case through kubesim's scheduler over the same objects: Explain for the
// verdicts and scores, Schedule for the cycle and its FailedScheduling message.
func simOutcome(t testing.TB, c genCase) outcome {
	t.Helper()
	s, err := scheduler.NewFixed(c.cluster, c.seed)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := s.Explain(c.pod)
	if err != nil {
		t.Fatalf("seed %d: kubesim's Explain: %v", c.seed, err)
	}
	var out outcome
	if ex.PreFilter != "" {
		out.PreFilter = ex.PreFilter
	}
	for _, n := range ex.Nodes {
		if len(n.Filters) == 0 && ex.PreFilter == "" {
			out.Narrowed = append(out.Narrowed, n.Name)
		}
		for _, v := range n.Filters {
			verdict := v.Code
			if v.Code != "Skip" {
				verdict = fmt.Sprintf("%s %q", v.Code, append([]string{}, v.Status.Reasons()...))
			}
			out.Filters = append(out.Filters, fmt.Sprintf("%s %s: %s", n.Name, v.Plugin, verdict))
		}
		for _, ps := range n.Scores {
			out.Scores = append(out.Scores, fmt.Sprintf("%s %s: %d→%d ×%d", n.Name, ps.Plugin, ps.Raw, ps.Score, ps.Weight))
		}
	}
	sort.Strings(out.Filters)
	sort.Strings(out.Scores)
	if ex.Winner != "" {
		out.Best = append([]string{ex.Winner}, ex.TiedWith...)
		sort.Strings(out.Best)
	}
	out.FitError = ex.Message
	out.Chosen, out.Message, err = s.Schedule(c.pod)
	if err != nil {
		t.Fatalf("seed %d: kubesim's cycle: %v", c.seed, err)
	}
	candidates, nominated, err := s.Preempt(c.pod)
	if err != nil {
		t.Fatalf("seed %d: kubesim's preemption: %v", c.seed, err)
	}
	for _, c := range candidates {
		out.Candidates = append(out.Candidates, fmt.Sprintf("%s: victims %v PDB violations %d", c.Node, c.Victims, c.PDBViolations))
	}
	out.Nominated = nominated
	return out
}

// compare reports every field on which kubesim and kube-scheduler differ, and returns
// kube-scheduler's outcome.
func compare(t testing.TB, c genCase) (outcome, bool) {
	t.Helper()
	real, sim := realOutcome(t, c), simOutcome(t, c)
	var diffs []string
	field := func(name string, want, got any) {
		if !reflect.DeepEqual(want, got) {
			diffs = append(diffs, fmt.Sprintf("%s:\n  kube-scheduler: %v\n  kubesim:        %v", name, want, got))
		}
	}
	lines := func(name string, want, got []string) {
		for _, l := range want {
			if !slices.Contains(got, l) {
				diffs = append(diffs, fmt.Sprintf("%s: kube-scheduler only: %s", name, l))
			}
		}
		for _, l := range got {
			if !slices.Contains(want, l) {
				diffs = append(diffs, fmt.Sprintf("%s: kubesim only:        %s", name, l))
			}
		}
	}
	field("PreFilter", real.PreFilter, sim.PreFilter)
	field("nodes left out at PreFilter", real.Narrowed, sim.Narrowed)
	lines("filter", real.Filters, sim.Filters)
	lines("score", real.Scores, sim.Scores)
	field("best nodes", real.Best, sim.Best)
	field("FitError", real.FitError, sim.FitError)
	field("FailedScheduling", real.Message, sim.Message)
	field("preemption candidates", real.Candidates, sim.Candidates)
	// SelectCandidate breaks ties at random: kubesim's pick must be one it can make.
	if real.Nominated != sim.Nominated && real.redraw != nil {
		for range 500 {
			if real.redraw() == sim.Nominated {
				real.Nominated = sim.Nominated
				break
			}
		}
	}
	field("nominated node", real.Nominated, sim.Nominated)
	// Ties are broken at random on both sides: each cycle's pick must be one of the best.
	switch {
	case (real.Chosen == "") != (sim.Chosen == ""):
		diffs = append(diffs, fmt.Sprintf("chosen: kube-scheduler %q, kubesim %q", real.Chosen, sim.Chosen))
	case real.Chosen != "" && !slices.Contains(real.Best, real.Chosen):
		t.Fatalf("seed %d: kube-scheduler chose %s, not one of its best %v", c.seed, real.Chosen, real.Best)
	case sim.Chosen != "" && !slices.Contains(real.Best, sim.Chosen):
		diffs = append(diffs, fmt.Sprintf("chosen: kubesim %s, not one of kube-scheduler's best %v", sim.Chosen, real.Best))
	}
	if len(diffs) > 0 {
		t.Errorf("seed %d: kubesim and kube-scheduler differ:\n%s\ncase: %s", c.seed, strings.Join(diffs, "\n"), describe(c))
		return real, false
	}
	return real, true
}

// describe prints a case for a failure message.
func describe(c genCase) string {
	var b strings.Builder
	for _, n := range c.cluster.Nodes {
		fmt.Fprintf(&b, "\n  node %s labels %v allocatable %v unschedulable %v taints %v images %d",
			n.Name, n.Labels, n.Status.Allocatable, n.Spec.Unschedulable, n.Spec.Taints, len(n.Status.Images))
	}
	for _, p := range c.cluster.Pods {
		fmt.Fprintf(&b, "\n  pod %s/%s on %s labels %v", p.Namespace, p.Name, p.Spec.NodeName, p.Labels)
		if p.Spec.Priority != nil {
			fmt.Fprintf(&b, " priority %d started %s", *p.Spec.Priority, p.Status.StartTime.Format(time.Kitchen))
		}
	}
	for _, pdb := range c.cluster.DisruptionBudgets {
		fmt.Fprintf(&b, "\n  pdb %s/%s selector %v allowed %d disrupted %d", pdb.Namespace, pdb.Name,
			pdb.Spec.Selector.MatchLabels, pdb.Status.DisruptionsAllowed, len(pdb.Status.DisruptedPods))
	}
	for _, sc := range c.cluster.Classes {
		fmt.Fprintf(&b, "\n  class %s provisioner %s binding %s", sc.Name, sc.Provisioner, *sc.VolumeBindingMode)
	}
	for _, pv := range c.cluster.Volumes {
		affinity, _ := json.Marshal(pv.Spec.NodeAffinity)
		fmt.Fprintf(&b, "\n  pv %s labels %v class %s size %v modes %v phase %s claimRef %v affinity %s", pv.Name, pv.Labels,
			pv.Spec.StorageClassName, pv.Spec.Capacity, pv.Spec.AccessModes, pv.Status.Phase, pv.Spec.ClaimRef != nil, affinity)
	}
	for _, pvc := range c.cluster.Claims {
		fmt.Fprintf(&b, "\n  pvc %s class %q request %v modes %v volume %q annotations %v", pvc.Name, api.ClaimClass(pvc),
			pvc.Spec.Resources.Requests, pvc.Spec.AccessModes, pvc.Spec.VolumeName, pvc.Annotations)
	}
	for _, p := range c.cluster.Pods {
		for _, v := range p.Spec.Volumes {
			fmt.Fprintf(&b, "\n  pod %s mounts claim %s", p.Name, v.PersistentVolumeClaim.ClaimName)
		}
	}
	spec, _ := json.Marshal(c.pod.Spec)
	fmt.Fprintf(&b, "\n  pending %s labels %v owners %d spec %s", c.pod.Name, c.pod.Labels, len(c.pod.OwnerReferences), spec)
	return b.String()
}

// seeds is how many generated clusters TestScheduler compares (about 0.1 s each); go test -seeds
// 5000 looks further.
var seeds = flag.Int64("seeds", 300, "generated clusters to compare")

func TestScheduler(t *testing.T) {
	failed, preempting, candidates := 0, 0, 0
	withClaims, volumeRejects := 0, map[string]int{}
	for seed := int64(1); seed <= *seeds; seed++ {
		c := generate(seed)
		real, same := compare(t, c)
		if !same {
			failed++
		}
		if failed >= 5 {
			t.Fatalf("stopped after %d differing cases (of %d)", failed, seed)
		}
		if real.Nominated != "" {
			preempting++
			candidates += len(real.Candidates)
		}
		if slices.ContainsFunc(c.pod.Spec.Volumes, func(v api.Volume) bool { return v.PersistentVolumeClaim != nil }) {
			withClaims++
		}
		for plugin := range volumeRejections(real) {
			volumeRejects[plugin]++
		}
	}
	// The generator must keep reaching preemption with victims, and pods with claims that the volume
	// plugins reject, or those comparisons prove nothing.
	if preempting < int(*seeds)/20 {
		t.Errorf("only %d of %d cases found preemption candidates", preempting, *seeds)
	}
	if withClaims < int(*seeds)/3 {
		t.Errorf("only %d of %d pending pods mount claims", withClaims, *seeds)
	}
	for _, plugin := range []string{"VolumeRestrictions", "VolumeBinding", "VolumeZone"} {
		if volumeRejects[plugin] < int(*seeds)/50 {
			t.Errorf("%s rejected the pod in only %d of %d cases", plugin, volumeRejects[plugin], *seeds)
		}
	}
	t.Logf("compared %d generated clusters; %d preempted, with %d candidate nodes in all; %d pending pods mount claims, rejected by a volume plugin in %v cases",
		*seeds, preempting, candidates, withClaims, volumeRejects)
}

// volumeRejections names the volume plugins that rejected the pod in a case, at PreFilter or on a node.
func volumeRejections(o outcome) map[string]bool {
	out := map[string]bool{}
	for _, plugin := range []string{"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone"} {
		if strings.HasPrefix(o.PreFilter, plugin+":") {
			out[plugin] = true
		}
		for _, l := range o.Filters {
			if strings.Contains(l, " "+plugin+": Unschedulable") {
				out[plugin] = true
			}
		}
	}
	return out
}

// FuzzScheduler searches seeds at random: go test -run XXX -fuzz FuzzScheduler -fuzztime 5m (its
// instrumented build of k8s.io/kubernetes takes long; -seeds N is the quicker way to look further).
func FuzzScheduler(f *testing.F) {
	for _, seed := range []int64{0, 1 << 40, -7} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) { compare(t, generate(seed)) })
}

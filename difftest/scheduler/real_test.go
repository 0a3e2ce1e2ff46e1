package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic/dynamicinformer"
	dynfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	kscheduler "k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding"
	"k8s.io/kubernetes/pkg/scheduler/profile"
)

// The default profile's filters and scores that kubesim has, in Kubernetes' order, and the score
// weights (the v1 configuration's getDefaultPlugins). Kubernetes also filters with
// DynamicResources; the generated pods have no resource claims, so it must skip or pass
// (realOutcome checks it).
var (
	filterPlugins = []string{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
		"NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
		"PodTopologySpread", "InterPodAffinity"}
	extraFilterPlugins = []string{"DynamicResources"}
	scoreWeights       = map[string]int64{"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1,
		"PodTopologySpread": 2, "InterPodAffinity": 2, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1}
)

// kube-scheduler logs through klog: its asynchronous preemption fails to evict victims the fake
// clientset does not hold (they are in its cache only), which is expected here and not worth a line.
func init() {
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
}

// outcome is what one side says about a case, as lines that compare as text.
type outcome struct {
	PreFilter string   // "Plugin: message" when PreFilter rejected the pod
	Narrowed  []string // nodes a PreFilterResult left out
	Filters   []string // "node Plugin: Code [reasons]" for every node filtered and every filter
	Scores    []string // "node Plugin: raw→normalised ×weight" for every feasible node
	Best      []string // the nodes sharing the highest total
	Chosen    string   // the node a scheduling cycle picked ("" when none fits)
	FitError  string   // the FitError message before PostFilter
	Message   string   // the FailedScheduling message, PostFilter's preemption sentence included
	// Candidates are preemption's candidate nodes, "node: victims [ns/name ...] PDB violations N",
	// by node name; Nominated the node preemption picks among them.
	Candidates []string
	Nominated  string
	// redraw asks kube-scheduler's SelectCandidate again: it breaks ties by map order, at random.
	redraw func() string
}

// convert moves an object from kubesim's api types to k8s.io/api's through JSON.
func convert[T any](t testing.TB, in any) *T {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return out
}

// realOutcome runs the case through kube-scheduler v1.34's own scheduler: scheduler.New with the
// default profile over a fake clientset, its cache fed the nodes and bound pods, SchedulePod for the
// cycle and PostFilter (DefaultPreemption) for the message, and each plugin's PreFilter, Filter,
// PreScore, Score and NormalizeScore called on the same snapshot for the per-plugin verdicts.
func realOutcome(t testing.TB, c genCase) outcome {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logger := klog.FromContext(ctx)
	pod := convert[v1.Pod](t, c.pod)
	// Preemption reads the pending pod from the informer; a copy without spec.nodeName, or the
	// scheduler's event handlers would count it as bound there.
	listed := pod.DeepCopy()
	listed.Spec.NodeName = ""
	objects := []runtime.Object{listed}
	for _, s := range c.cluster.Services {
		objects = append(objects, convert[v1.Service](t, s))
	}
	for _, rs := range c.cluster.ReplicaSets {
		objects = append(objects, convert[appsv1.ReplicaSet](t, rs))
	}
	var pdbs []*policyv1.PodDisruptionBudget
	for _, pdb := range c.cluster.DisruptionBudgets {
		pdbs = append(pdbs, convert[policyv1.PodDisruptionBudget](t, pdb))
		objects = append(objects, pdbs[len(pdbs)-1])
	}
	for _, o := range c.cluster.Claims {
		objects = append(objects, convert[v1.PersistentVolumeClaim](t, o))
	}
	for _, o := range c.cluster.Volumes {
		objects = append(objects, convert[v1.PersistentVolume](t, o))
	}
	for _, o := range c.cluster.Classes {
		objects = append(objects, convert[storagev1.StorageClass](t, o))
	}
	client := fake.NewSimpleClientset(objects...)
	factory := informers.NewSharedInformerFactory(client, 0)
	dynFactory := dynamicinformer.NewDynamicSharedInformerFactory(dynfake.NewSimpleDynamicClient(runtime.NewScheme()), 0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	sched, err := kscheduler.New(ctx, client, factory, dynFactory, profile.NewRecorderFactory(broadcaster))
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	defer factory.Shutdown()
	waitForAssumeCaches(ctx, t, pluginOf(sched.Profiles["default-scheduler"], "VolumeBinding"))
	defer cancel()
	for _, n := range c.cluster.Nodes {
		sched.Cache.AddNode(logger, convert[v1.Node](t, n))
	}
	for _, p := range c.cluster.Pods {
		if err := sched.Cache.AddPod(logger, convert[v1.Pod](t, p)); err != nil {
			t.Fatal(err)
		}
	}
	f := sched.Profiles["default-scheduler"]

	var out outcome
	// The cycle: SchedulePod, then PostFilter as schedulingCycle runs it.
	state := framework.NewCycleState()
	res, err := sched.SchedulePod(ctx, f, state, pod)
	var fitErr *framework.FitError
	cycleState := state
	switch {
	case errors.As(err, &fitErr):
		out.FitError = fitErr.Error()
		// As schedulingCycle: PostFilter's message is taken whatever its code.
		_, st := f.RunPostFilterPlugins(ctx, state, pod, fitErr.Diagnosis.NodeToStatus)
		fitErr.Diagnosis.PostFilterMsg = st.Message()
		out.Message = fitErr.Error()
	case err != nil:
		t.Fatalf("seed %d: kube-scheduler: %v", c.seed, err)
	default:
		out.Chosen = res.SuggestedHost
	}

	// Each plugin on its own, on the snapshot SchedulePod refreshed.
	nodes, err := f.SnapshotSharedLister().NodeInfos().List()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := latest.Default()
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]runtime.Object{}
	for _, pc := range cfg.Profiles[0].PluginConfig {
		args[pc.Name] = pc.Args
	}
	registry := frameworkplugins.NewInTreeRegistry()
	instance := func(name string) framework.Plugin {
		pl, err := registry[name](ctx, args[name], f)
		if err != nil {
			t.Fatalf("plugin %s: %v", name, err)
		}
		if name == "VolumeBinding" {
			waitForAssumeCaches(ctx, t, pl)
		}
		return pl
	}
	if fitErr != nil {
		realPreemption(ctx, t, &out, instance("DefaultPreemption").(*defaultpreemption.DefaultPreemption), f, cycleState, pod, fitErr, pdbs)
	}

	state = framework.NewCycleState()
	pre, st, _ := f.RunPreFilterPlugins(ctx, state, pod)
	if !st.IsSuccess() {
		if !st.IsRejected() {
			t.Fatalf("seed %d: kube-scheduler's PreFilter: %v", c.seed, st.AsError())
		}
		out.PreFilter = st.Plugin() + ": " + st.Message()
		return out
	}
	var filtered, feasible []fwk.NodeInfo
	for _, ni := range nodes {
		if pre.AllNodes() || pre.NodeNames.Has(ni.Node().Name) {
			filtered = append(filtered, ni)
		} else {
			out.Narrowed = append(out.Narrowed, ni.Node().Name)
		}
	}
	for _, name := range append(slices.Clone(filterPlugins), extraFilterPlugins...) {
		pl := instance(name).(framework.FilterPlugin)
		for _, ni := range filtered {
			verdict := fwk.Skip.String()
			if !state.GetSkipFilterPlugins().Has(name) {
				verdict = fmt.Sprintf("%s %q", fwk.Success, []string{})
				if st := pl.Filter(ctx, state, pod, ni); st != nil {
					verdict = fmt.Sprintf("%s %q", st.Code(), st.Reasons())
				}
			}
			if slices.Contains(extraFilterPlugins, name) {
				if verdict != fwk.Skip.String() && !strings.HasPrefix(verdict, fwk.Success.String()) {
					t.Fatalf("seed %d: %s on %s: %s; the generated pods have no resource claims", c.seed, name, ni.Node().Name, verdict)
				}
				continue
			}
			out.Filters = append(out.Filters, fmt.Sprintf("%s %s: %s", ni.Node().Name, name, verdict))
		}
	}
	sort.Strings(out.Filters)
	sort.Strings(out.Narrowed)
	for _, ni := range filtered {
		if f.RunFilterPlugins(ctx, state, pod, ni).IsSuccess() {
			feasible = append(feasible, ni)
		}
	}
	if len(feasible) == 0 {
		return out
	}
	if st := f.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		t.Fatalf("seed %d: kube-scheduler's PreScore: %v", c.seed, st.AsError())
	}
	totals := map[string]int64{}
	for name, weight := range scoreWeights {
		if state.GetSkipScorePlugins().Has(name) {
			continue
		}
		pl := instance(name).(framework.ScorePlugin)
		scores := make(framework.NodeScoreList, len(feasible))
		for i, ni := range feasible {
			s, st := pl.Score(ctx, state, pod, ni)
			if !st.IsSuccess() {
				t.Fatalf("seed %d: %s Score: %v", c.seed, name, st.AsError())
			}
			scores[i] = framework.NodeScore{Name: ni.Node().Name, Score: s}
		}
		raw := slices.Clone(scores)
		if ext := pl.ScoreExtensions(); ext != nil {
			if st := ext.NormalizeScore(ctx, state, pod, scores); !st.IsSuccess() {
				t.Fatalf("seed %d: %s NormalizeScore: %v", c.seed, name, st.AsError())
			}
		}
		for i := range scores {
			out.Scores = append(out.Scores, fmt.Sprintf("%s %s: %d→%d ×%d", scores[i].Name, name, raw[i].Score, scores[i].Score, weight))
			totals[scores[i].Name] += scores[i].Score * weight
		}
	}
	sort.Strings(out.Scores)
	// The framework's own totals must be the sum just computed, or this harness is wrong.
	frameworkScores, st := f.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		t.Fatalf("seed %d: kube-scheduler's Score: %v", c.seed, st.AsError())
	}
	best := int64(-1)
	for _, ns := range frameworkScores {
		if ns.TotalScore != totals[ns.Name] {
			t.Fatalf("seed %d: the harness sums %d on %s, kube-scheduler %d (%v)", c.seed, totals[ns.Name], ns.Name, ns.TotalScore, ns.Scores)
		}
		switch {
		case ns.TotalScore > best:
			best, out.Best = ns.TotalScore, []string{ns.Name}
		case ns.TotalScore == best:
			out.Best = append(out.Best, ns.Name)
		}
	}
	sort.Strings(out.Best)
	return out
}

// realPreemption is DefaultPreemption's search as Preempt runs it, without the evictions: the
// candidate nodes DryRunPreemption finds among the nodes where removing pods might help (all of them:
// a case has fewer than 100 nodes, so no sampling), and SelectCandidate's pick.
func realPreemption(ctx context.Context, t testing.TB, out *outcome, pl *defaultpreemption.DefaultPreemption, f framework.Framework,
	state fwk.CycleState, pod *v1.Pod, fitErr *framework.FitError, pdbs []*policyv1.PodDisruptionBudget) {
	m := fitErr.Diagnosis.NodeToStatus
	if ok, _ := pl.PodEligibleToPreemptOthers(ctx, pod, m.Get(pod.Status.NominatedNodeName)); !ok {
		return
	}
	potential, err := m.NodesForStatusCode(f.SnapshotSharedLister().NodeInfos(), fwk.Unschedulable)
	if err != nil {
		t.Fatal(err)
	}
	if len(potential) == 0 {
		return
	}
	candidates, _, err := pl.Evaluator.DryRunPreemption(ctx, state, pod, potential, pdbs, 0, int32(len(potential)))
	if err != nil {
		t.Fatalf("kube-scheduler's DryRunPreemption: %v", err)
	}
	sort.Slice(candidates, func(i, j int) bool { return candidates[i].Name() < candidates[j].Name() })
	for _, c := range candidates {
		var victims []string
		for _, p := range c.Victims().Pods {
			victims = append(victims, p.Namespace+"/"+p.Name)
		}
		out.Candidates = append(out.Candidates, fmt.Sprintf("%s: victims %v PDB violations %d", c.Name(), victims, c.Victims().NumPDBViolations))
	}
	if len(candidates) > 0 {
		out.redraw = func() string { return pl.Evaluator.SelectCandidate(ctx, candidates).Name() }
		out.Nominated = out.redraw()
	}
}

// waitForAssumeCaches waits until a VolumeBinding plugin's assume caches of claims and volumes hold
// what the informers listed. They fill from informer event handlers of their own, after
// WaitForCacheSync returns; until then kube-scheduler would report a claim's volume missing. The
// handler registrations are private, so reflection reads them (test code against a pinned version).
func waitForAssumeCaches(ctx context.Context, t testing.TB, pl framework.Plugin) {
	t.Helper()
	vb, ok := pl.(*volumebinding.VolumeBinding)
	if !ok {
		t.Fatalf("plugin %T is not VolumeBinding", pl)
	}
	binder := reflect.ValueOf(vb.Binder).Elem()
	for _, name := range []string{"pvcCache", "pvCache"} {
		assume := private(binder, name).Elem().Field(0).Elem() // *PVCAssumeCache{*assumecache.AssumeCache}
		reg, ok := private(assume, "handlerRegistration").Interface().(toolscache.ResourceEventHandlerRegistration)
		if !ok || !toolscache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
			t.Fatalf("VolumeBinding's %s did not sync", name)
		}
	}
}

// pluginOf finds a profile's own instance of a plugin (frameworkImpl.pluginsMap).
func pluginOf(f framework.Framework, name string) framework.Plugin {
	m := private(reflect.ValueOf(f).Elem(), "pluginsMap")
	return m.MapIndex(reflect.ValueOf(name)).Interface().(framework.Plugin)
}

// private reads an unexported field of an addressable struct value.
func private(v reflect.Value, field string) reflect.Value {
	f := v.FieldByName(field)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

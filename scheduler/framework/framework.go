// framework.go: Framework, one scheduling profile brought to life (frameworkImpl in Kubernetes'
// framework/runtime). It builds the profile's plugins from a Registry, sorts them into the extension
// points they implement, and runs each point: PreFilter in order, Filter until the first rejection,
// Score with normalising and weights, Bind until a plugin does not Skip. A plugin that returns an
// error, or even panics, costs the pod a retry, never the scheduler its life.
// Interface: PluginFactory, Registry, PluginRef, Profile, Framework, NewFramework, Options and the
// Run... methods.
package framework

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"sync/atomic"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/trace"
)

// PluginFactory builds a plugin for one profile.
type PluginFactory func(h Handle) (Plugin, error)

// Registry maps plugin names to factories (the "in-tree registry" plus any out-of-tree plugins).
type Registry map[string]PluginFactory

// PluginRef enables a plugin in a profile. Weight matters only for Score plugins (0 means 1).
type PluginRef struct {
	Name   string
	Weight int32
}

// Profile is one KubeSchedulerProfile: a schedulerName and the plugins that serve it. The plugins are
// listed once, as the "multiPoint" set of the configuration: each joins every extension point it
// implements, in the order listed.
type Profile struct {
	SchedulerName string
	Plugins       []PluginRef
	// PercentageOfNodesToScore overrides the scheduler's adaptive default for this profile.
	PercentageOfNodesToScore *int32
}

// Options are what the scheduler gives every framework.
type Options struct {
	Client   *client.Client
	Recorder *client.EventRecorder
	Clock    clock.Clock
	// Trace records a trace event (nil: no trace).
	Trace func(trace.Event)
	// Workloads finds the Services and ReplicaSets pods belong to (nil: none).
	Workloads WorkloadLister
	// Volumes finds the claims, volumes and classes pods use (nil: none).
	Volumes VolumeLister
	// DisruptionBudgets finds the PodDisruptionBudgets preemption respects (nil: none).
	DisruptionBudgets DisruptionBudgetLister
	// Rand is the scheduler's seeded source of chance (nil: a source seeded with 0), used by one
	// scheduling cycle at a time.
	Rand *rand.Rand
}

// Framework runs one profile's plugins.
type Framework struct {
	profile Profile
	opts    Options

	queueSort  QueueSortPlugin
	preFilter  []PreFilterPlugin
	filter     []FilterPlugin
	filterBits []uint64 // filterBits[i] is filter[i]'s skip bit
	postFilter []PostFilterPlugin
	preScore   []PreScorePlugin
	score      []ScorePlugin
	weights    map[string]int64
	// bit maps a plugin's name to its bit in CycleState's skip masks.
	bit     map[string]uint64
	reserve []ReservePlugin
	preBind []PreBindPlugin
	bind    []BindPlugin
	events  map[string][]ClusterEvent

	// scoreBuf holds RunScorePlugins' results between calls (one cycle at a time).
	scoreBuf struct {
		raw  []NodeScore
		slab []PluginScore
		out  []NodePluginScores
	}
	// parallelism is how many goroutines filter and score nodes (1 in step mode).
	parallelism int
	// snapshot and nominator are the current cycle's; the scheduler runs one cycle at a time and
	// sets them at its start (SetCycle).
	snapshot  *Snapshot
	nominator Nominator
}

var _ Handle = (*Framework)(nil)

// NewFramework builds profile's plugins from registry.
func NewFramework(registry Registry, profile Profile, opts Options) (*Framework, error) {
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewSource(0))
	}
	f := &Framework{profile: profile, opts: opts, weights: map[string]int64{}, bit: map[string]uint64{},
		events: map[string][]ClusterEvent{}, parallelism: 1}
	if len(profile.Plugins) > 64 {
		return nil, fmt.Errorf("profile %q: more than 64 plugins", profile.SchedulerName)
	}
	seen := map[string]bool{}
	for _, ref := range profile.Plugins {
		if seen[ref.Name] {
			return nil, fmt.Errorf("profile %q: plugin %q enabled twice", profile.SchedulerName, ref.Name)
		}
		seen[ref.Name] = true
		f.bit[ref.Name] = 1 << len(f.bit)
		factory, ok := registry[ref.Name]
		if !ok {
			return nil, fmt.Errorf("profile %q: plugin %q is not in the registry", profile.SchedulerName, ref.Name)
		}
		pl, err := factory(f)
		if err != nil {
			return nil, fmt.Errorf("profile %q: building plugin %q: %w", profile.SchedulerName, ref.Name, err)
		}
		f.register(pl, ref)
	}
	if f.queueSort == nil {
		return nil, fmt.Errorf("profile %q: no QueueSort plugin enabled", profile.SchedulerName)
	}
	if len(f.bind) == 0 {
		return nil, fmt.Errorf("profile %q: no Bind plugin enabled", profile.SchedulerName)
	}
	return f, nil
}

// register adds pl to every extension point it implements.
func (f *Framework) register(pl Plugin, ref PluginRef) {
	if p, ok := pl.(QueueSortPlugin); ok {
		f.queueSort = p
	}
	if p, ok := pl.(PreFilterPlugin); ok {
		f.preFilter = append(f.preFilter, p)
	}
	if p, ok := pl.(FilterPlugin); ok {
		f.filter = append(f.filter, p)
		f.filterBits = append(f.filterBits, f.bit[pl.Name()])
	}
	if p, ok := pl.(PostFilterPlugin); ok {
		f.postFilter = append(f.postFilter, p)
	}
	if p, ok := pl.(PreScorePlugin); ok {
		f.preScore = append(f.preScore, p)
	}
	if p, ok := pl.(ScorePlugin); ok {
		f.score = append(f.score, p)
		f.weights[pl.Name()] = max(int64(ref.Weight), 1)
	}
	if p, ok := pl.(ReservePlugin); ok {
		f.reserve = append(f.reserve, p)
	}
	if p, ok := pl.(PreBindPlugin); ok {
		f.preBind = append(f.preBind, p)
	}
	if p, ok := pl.(BindPlugin); ok {
		f.bind = append(f.bind, p)
	}
	if p, ok := pl.(EnqueueExtensions); ok {
		f.events[pl.Name()] = p.EventsToRegister()
	}
}

// ProfileName is the schedulerName this framework serves.
func (f *Framework) ProfileName() string { return f.profile.SchedulerName }

// Profile returns the profile's configuration.
func (f *Framework) Profile() Profile { return f.profile }

// QueueSortFunc is the profile's queue order.
func (f *Framework) QueueSortFunc() func(a, b *QueuedPodInfo) bool { return f.queueSort.Less }

// EventsToRegister maps each plugin to the cluster events it registered.
func (f *Framework) EventsToRegister() map[string][]ClusterEvent { return f.events }

// SetParallelism sets how many goroutines filter and score nodes.
func (f *Framework) SetParallelism(n int) { f.parallelism = max(n, 1) }

// SetCycle gives the framework the snapshot and nominated pods of the cycle about to run.
func (f *Framework) SetCycle(s *Snapshot, n Nominator) { f.snapshot, f.nominator = s, n }

// Handle methods.

func (f *Framework) SnapshotSharedLister() *Snapshot           { return f.snapshot }
func (f *Framework) Workloads() WorkloadLister                 { return f.opts.Workloads }
func (f *Framework) Volumes() VolumeLister                     { return f.opts.Volumes }
func (f *Framework) DisruptionBudgets() DisruptionBudgetLister { return f.opts.DisruptionBudgets }
func (f *Framework) ClientSet() *client.Client                 { return f.opts.Client }
func (f *Framework) EventRecorder() *client.EventRecorder      { return f.opts.Recorder }
func (f *Framework) Clock() clock.Clock                        { return f.opts.Clock }
func (f *Framework) Nominator() Nominator                      { return f.nominator }
func (f *Framework) Rand() *rand.Rand                          { return f.opts.Rand }

// Trace records e through the scheduler's recorder.
func (f *Framework) Trace(e trace.Event) {
	if f.opts.Trace != nil {
		f.opts.Trace(e)
	}
}

// guard turns a plugin's panic into an Error status.
func guard(name string, st **Status) {
	if r := recover(); r != nil {
		*st = panicked(name, r)
	}
}

// panicked is the Error status of a plugin that panicked with r.
func panicked(name string, r any) *Status {
	return AsStatus(fmt.Errorf("plugin %q panicked: %v", name, r))
}

// pluginFailed is the error status for a plugin that failed (not rejected) at an extension point:
// format names the point and takes the plugin's name and its error, as Kubernetes words it
// ("running Reserve plugin %q: %w").
func pluginFailed(format, name string, st *Status) *Status {
	return AsStatus(fmt.Errorf(format, name, st.AsError())).WithPlugin(name)
}

// guarded calls run on pl, turning a panic into an Error status (guard).
func guarded[P Plugin](pl P, run func(P) *Status) (st *Status) {
	defer guard(pl.Name(), &st)
	return run(pl)
}

// runEach calls run on each plugin in order and stops at the first that does not succeed, wrapping
// its status with format (pluginFailed).
func runEach[P Plugin](plugins []P, format string, run func(P) *Status) *Status {
	for _, pl := range plugins {
		if st := guarded(pl, run); !st.IsSuccess() {
			return pluginFailed(format, pl.Name(), st)
		}
	}
	return nil
}

// withPlugin returns a copy of st naming the plugin (plugins may return shared statuses).
func withPlugin(st *Status, name string) *Status {
	c := *st
	c.plugin = name
	return &c
}

// RunPreFilterPlugins runs every PreFilter plugin and merges their results. UnschedulableAndUnresolvable
// stops at once; Unschedulable is remembered and returned once the others have run; an error is
// wrapped with the plugin's name. A rejection's message becomes the FitError's PreFilter message.
// pluginsWithNodes lists (sorted) the plugins that narrowed the nodes; when together they leave none,
// the pod is rejected with `node(s) didn't satisfy plugin NodeAffinity` (or `plugin(s) [...]
// simultaneously`).
func (f *Framework) RunPreFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod) (result *PreFilterResult, status *Status, pluginsWithNodes []string) {
	for _, pl := range f.preFilter {
		r, st := f.runPreFilter(ctx, pl, state, pod)
		switch {
		case st.IsSkip():
			state.skipFilter |= f.bit[pl.Name()]
			continue
		case st.Code() == UnschedulableAndUnresolvable:
			return nil, withPlugin(st, pl.Name()), nil
		case st.Code() == Unschedulable:
			status = withPlugin(st, pl.Name())
			continue
		case !st.IsSuccess():
			return nil, pluginFailed("running PreFilter plugin %q: %w", pl.Name(), st), nil
		}
		if !r.AllNodes() {
			pluginsWithNodes = append(pluginsWithNodes, pl.Name())
			slices.Sort(pluginsWithNodes)
		}
		result = result.Merge(r)
		if !result.AllNodes() && len(result.NodeNames) == 0 {
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", pluginsWithNodes)
			if len(pluginsWithNodes) == 1 {
				msg = "node(s) didn't satisfy plugin " + pluginsWithNodes[0]
			}
			return result, NewStatus(UnschedulableAndUnresolvable, msg), pluginsWithNodes
		}
	}
	return result, status, pluginsWithNodes
}

func (f *Framework) runPreFilter(ctx context.Context, pl PreFilterPlugin, state *CycleState, pod *api.Pod) (r *PreFilterResult, st *Status) {
	defer guard(pl.Name(), &st)
	return pl.PreFilter(ctx, state, pod)
}

// RunPreFilterExtensionAddPod tells every PreFilter plugin with extensions that podToAdd now runs on
// nodeInfo's node.
func (f *Framework) RunPreFilterExtensionAddPod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToAdd *PodInfo, nodeInfo *NodeInfo) *Status {
	return f.runExtensions(state, func(ext PreFilterExtensions) *Status {
		return ext.AddPod(ctx, state, podToSchedule, podToAdd, nodeInfo)
	})
}

// RunPreFilterExtensionRemovePod tells every PreFilter plugin with extensions that podToRemove no
// longer runs on nodeInfo's node.
func (f *Framework) RunPreFilterExtensionRemovePod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToRemove *PodInfo, nodeInfo *NodeInfo) *Status {
	return f.runExtensions(state, func(ext PreFilterExtensions) *Status {
		return ext.RemovePod(ctx, state, podToSchedule, podToRemove, nodeInfo)
	})
}

func (f *Framework) runExtensions(state *CycleState, call func(PreFilterExtensions) *Status) *Status {
	for _, pl := range f.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || state.skipFilter&f.bit[pl.Name()] != 0 {
			continue
		}
		if st := call(ext); !st.IsSuccess() {
			return pluginFailed("running PreFilterExtension for plugin %q: %w", pl.Name(), st)
		}
	}
	return nil
}

// RunFilterPlugins runs the Filter plugins on one node and stops at the first that does not pass: a
// node needs only one reason to be rejected, and that reason is what the FitError counts. A panic
// is caught once per node, not once per plugin call (this runs per plugin per node, hundreds of
// thousands of times a second at thousands of nodes), with the same status as guard's.
func (f *Framework) RunFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) (st *Status) {
	i := 0
	defer func() {
		if r := recover(); r != nil {
			name := f.filter[i].Name()
			st = pluginFailed("running %q filter plugin: %w", name, panicked(name, r))
		}
	}()
	for ; i < len(f.filter); i++ {
		if state.skipFilter&f.filterBits[i] != 0 {
			continue
		}
		pl := f.filter[i]
		st := pl.Filter(ctx, state, pod, nodeInfo)
		if st.IsSuccess() {
			continue
		}
		if !st.IsRejected() {
			return pluginFailed("running %q filter plugin: %w", pl.Name(), st)
		}
		return withPlugin(st, pl.Name())
	}
	return nil
}

func (f *Framework) runFilter(ctx context.Context, pl FilterPlugin, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) (st *Status) {
	defer guard(pl.Name(), &st)
	return pl.Filter(ctx, state, pod, nodeInfo)
}

// FilterVerdict is one Filter plugin's verdict on one node, for Explain.
type FilterVerdict struct {
	Plugin string `json:"plugin"`
	Code   string `json:"code"`
	Reason string `json:"reason,omitempty"`
	// Status is the plugin's status itself, with each of its reasons: a FitError counts every one.
	Status *Status `json:"-"`
}

// RunAllFilterPlugins runs every Filter plugin on a node, even after a rejection, so that Explain can
// show each verdict. Skipped plugins are reported with code Skip.
func (f *Framework) RunAllFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) []FilterVerdict {
	out := make([]FilterVerdict, 0, len(f.filter))
	for i, pl := range f.filter {
		if state.skipFilter&f.filterBits[i] != 0 {
			out = append(out, FilterVerdict{Plugin: pl.Name(), Code: Skip.String()})
			continue
		}
		st := f.runFilter(ctx, pl, state, pod, nodeInfo)
		out = append(out, FilterVerdict{Plugin: pl.Name(), Code: st.Code().String(), Reason: st.Message(), Status: st})
	}
	return out
}

// RunFilterPluginsWithNominatedPods runs the filters as if the pods nominated to this node with a
// priority at least the pod's were already there, so that room freed by preemption is not taken by
// a less important pod. As in Kubernetes, it then runs them again without those pods, because a
// nominated pod might also be what makes the pod fit (pod affinity); the node must pass both ways.
func (f *Framework) RunFilterPluginsWithNominatedPods(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status {
	added, stateWith, infoWith, err := f.addNominatedPods(ctx, pod, state, nodeInfo)
	if err != nil {
		return AsStatus(err)
	}
	st := f.RunFilterPlugins(ctx, stateWith, pod, infoWith)
	if !added || !st.IsSuccess() {
		return st
	}
	return f.RunFilterPlugins(ctx, state, pod, nodeInfo)
}

func (f *Framework) addNominatedPods(ctx context.Context, pod *api.Pod, state *CycleState, nodeInfo *NodeInfo) (bool, *CycleState, *NodeInfo, error) {
	if f.nominator == nil {
		return false, state, nodeInfo, nil
	}
	nominated := f.nominator.NominatedPodsForNode(nodeInfo.Name())
	if len(nominated) == 0 {
		return false, state, nodeInfo, nil
	}
	added := false
	stateOut, infoOut := state.Clone(), nodeInfo
	for _, pi := range nominated {
		if pi.Pod.UID == pod.UID || PodPriority(pi.Pod) < PodPriority(pod) {
			continue
		}
		infoOut = infoOut.WithPod(pi)
		if st := f.RunPreFilterExtensionAddPod(ctx, stateOut, pod, pi, infoOut); !st.IsSuccess() {
			return false, state, nodeInfo, st.AsError()
		}
		added = true
	}
	return added, stateOut, infoOut, nil
}

// RunPostFilterPlugins runs PostFilter plugins until one succeeds (or fails for good); the reasons of
// those that could not help are joined, in order, into the status' message.
func (f *Framework) RunPostFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, m NodeToStatus) (*PostFilterResult, *Status) {
	var reasons []string
	var result *PostFilterResult
	for _, pl := range f.postFilter {
		r, st := f.runPostFilter(ctx, pl, state, pod, m)
		switch {
		case st.IsSuccess():
			return r, st
		case st.Code() == UnschedulableAndUnresolvable:
			return r, withPlugin(st, pl.Name())
		case !st.IsRejected():
			// The error as the plugin said it: it ends up in the FailedScheduling message.
			return nil, AsStatus(st.AsError()).WithPlugin(pl.Name())
		}
		if r != nil {
			result = r
		}
		reasons = append(reasons, st.Reasons()...)
	}
	if len(f.postFilter) == 0 {
		return nil, NewStatus(Unschedulable)
	}
	return result, NewStatus(Unschedulable, reasons...)
}

func (f *Framework) runPostFilter(ctx context.Context, pl PostFilterPlugin, state *CycleState, pod *api.Pod, m NodeToStatus) (r *PostFilterResult, st *Status) {
	defer guard(pl.Name(), &st)
	return pl.PostFilter(ctx, state, pod, m)
}

// HasPostFilterPlugins reports whether any PostFilter plugin is enabled.
func (f *Framework) HasPostFilterPlugins() bool { return len(f.postFilter) > 0 }

// RunPreScorePlugins runs every PreScore plugin over the feasible nodes.
func (f *Framework) RunPreScorePlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*NodeInfo) *Status {
	for _, pl := range f.preScore {
		st := f.runPreScore(ctx, pl, state, pod, nodes)
		switch {
		case st.IsSuccess():
		case st.IsSkip():
			state.skipScore |= f.bit[pl.Name()]
		default:
			return pluginFailed("running PreScore plugin %q: %w", pl.Name(), st)
		}
	}
	return nil
}

func (f *Framework) runPreScore(ctx context.Context, pl PreScorePlugin, state *CycleState, pod *api.Pod, nodes []*NodeInfo) (st *Status) {
	defer guard(pl.Name(), &st)
	return pl.PreScore(ctx, state, pod, nodes)
}

// RunScorePlugins scores every node with every Score plugin not skipped, normalises each plugin's
// scores to 0..100, multiplies by the plugin's weight and sums per node. The result is in the order
// of nodes; it lives in buffers the next call reuses (scoring allocates nothing once warm), so a
// caller that keeps it must copy it.
func (f *Framework) RunScorePlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*NodeInfo) ([]NodePluginScores, *Status) {
	var plugins []ScorePlugin
	for _, pl := range f.score {
		if state.skipScore&f.bit[pl.Name()] == 0 {
			plugins = append(plugins, pl)
		}
	}
	np, nn := len(plugins), len(nodes)
	buf := &f.scoreBuf
	if cap(buf.raw) < np*nn {
		buf.raw = make([]NodeScore, np*nn)
		buf.slab = make([]PluginScore, np*nn)
	}
	if cap(buf.out) < nn {
		buf.out = make([]NodePluginScores, nn)
	}
	raw := make([]NodeScoreList, np)
	for i := range plugins {
		raw[i] = buf.raw[i*nn : (i+1)*nn : (i+1)*nn]
	}
	var firstErr atomic.Pointer[Status]
	f.Until(nn, func(n int) bool {
		if st := f.scoreNode(ctx, plugins, state, pod, nodes[n], raw, n); st != nil {
			firstErr.CompareAndSwap(nil, st)
			return false
		}
		return true
	})
	if st := firstErr.Load(); st != nil {
		return nil, st
	}
	out := buf.out[:nn]
	names := make([]string, np) // asked once per plugin, not once per plugin per node
	for i, pl := range plugins {
		names[i] = pl.Name()
	}
	for n := range nodes {
		out[n] = NodePluginScores{Name: nodes[n].Name(), Scores: buf.slab[n*np : (n+1)*np : (n+1)*np]}
		for i := range plugins {
			out[n].Scores[i] = PluginScore{Plugin: names[i], Raw: raw[i][n].Score}
		}
	}
	for i, pl := range plugins {
		if ext := pl.ScoreExtensions(); ext != nil {
			if st := f.runNormalize(ctx, pl.Name(), ext, state, pod, raw[i]); !st.IsSuccess() {
				return nil, pluginFailed("running Normalize on Score plugin %q: %w", pl.Name(), st)
			}
		}
		weight := f.weights[pl.Name()]
		for n := range nodes {
			s := raw[i][n].Score
			if s < 0 || s > MaxNodeScore {
				return nil, AsStatus(fmt.Errorf("plugin %q returns an invalid score %v, it should in the range of [0, %v] after normalizing", pl.Name(), s, MaxNodeScore)).WithPlugin(pl.Name())
			}
			ps := &out[n].Scores[i]
			ps.Score, ps.Weight, ps.Weighted = s, weight, s*weight
			out[n].TotalScore += s * weight
		}
	}
	return out, nil
}

// scoreNode scores the n-th node with every plugin into raw[i][n], or returns the first failure,
// wrapped. A panic is caught once per node, not once per plugin call, with guard's status.
func (f *Framework) scoreNode(ctx context.Context, plugins []ScorePlugin, state *CycleState, pod *api.Pod, ni *NodeInfo, raw []NodeScoreList, n int) (failed *Status) {
	i := 0
	defer func() {
		if r := recover(); r != nil {
			name := plugins[i].Name()
			failed = pluginFailed("running Score plugin %q: %w", name, panicked(name, r))
		}
	}()
	for ; i < len(plugins); i++ {
		s, st := plugins[i].Score(ctx, state, pod, ni)
		if !st.IsSuccess() {
			return pluginFailed("running Score plugin %q: %w", plugins[i].Name(), st)
		}
		raw[i][n] = NodeScore{Name: ni.Name(), Score: s}
	}
	return nil
}

func (f *Framework) runNormalize(ctx context.Context, name string, ext ScoreExtensions, state *CycleState, pod *api.Pod, scores NodeScoreList) (st *Status) {
	defer guard(name, &st)
	return ext.NormalizeScore(ctx, state, pod, scores)
}

// RunReservePluginsReserve tells Reserve plugins the pod is assumed on nodeName.
func (f *Framework) RunReservePluginsReserve(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) *Status {
	return runEach(f.reserve, "running Reserve plugin %q: %w", func(pl ReservePlugin) *Status {
		return pl.Reserve(ctx, state, pod, nodeName)
	})
}

// RunReservePluginsUnreserve undoes Reserve, in reverse order.
func (f *Framework) RunReservePluginsUnreserve(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) {
	for i := len(f.reserve) - 1; i >= 0; i-- {
		func() {
			var st *Status
			defer guard(f.reserve[i].Name(), &st)
			f.reserve[i].Unreserve(ctx, state, pod, nodeName)
		}()
	}
}

// RunPreBindPlugins runs PreBind plugins in order, stopping at the first failure.
func (f *Framework) RunPreBindPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) *Status {
	return runEach(f.preBind, "running PreBind plugin %q: %w", func(pl PreBindPlugin) *Status {
		return pl.PreBind(ctx, state, pod, nodeName)
	})
}

// RunBindPlugins asks Bind plugins in order until one does not Skip.
func (f *Framework) RunBindPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) *Status {
	for _, pl := range f.bind {
		st := f.runBind(ctx, pl, state, pod, nodeName)
		if st.IsSkip() {
			continue
		}
		if !st.IsSuccess() {
			return pluginFailed("running Bind plugin %q: %w", pl.Name(), st)
		}
		return nil
	}
	return NewStatus(Skip)
}

func (f *Framework) runBind(ctx context.Context, pl BindPlugin, state *CycleState, pod *api.Pod, nodeName string) (st *Status) {
	defer guard(pl.Name(), &st)
	return pl.Bind(ctx, state, pod, nodeName)
}

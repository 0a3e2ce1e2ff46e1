package lab_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/controllers/endpoints"
	"kubesim/lab"
	"kubesim/scenarios"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
	"kubesim/script"
	"kubesim/sim"
)

var ctx = context.Background()

// compare plays a scenario with the built-in components and with the swaps, and diffs the stories.
func compare(t *testing.T, name string, swaps ...lab.Swap) (lab.StoryDiff, error) {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	require.True(t, ok, name)
	d, yourErr, err := lab.Compare(ctx, sc, 1, swaps...)
	require.NoError(t, err)
	return d, yourErr
}

// compareUntil is compare with your run stopped once condition holds: for swaps whose scenario
// would otherwise wait an hour of cluster time for what they never do.
func compareUntil(t *testing.T, name, condition string, swaps ...lab.Swap) lab.StoryDiff {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	require.True(t, ok, name)
	until, err := script.ParseCondition(condition)
	require.NoError(t, err)
	d, _, err := lab.RunWith(ctx, sc, sim.PlayOptions{Seed: 1, Out: io.Discard, Until: until}, swaps...)
	require.NoError(t, err)
	return d
}

// Kubernetes' back-off, as a learner writes it: the same story as the kubelet's own.
func kubernetesBackOff(previous time.Duration) time.Duration {
	if previous == 0 {
		return 10 * time.Second
	}
	return min(2*previous, 5*time.Minute)
}

func TestABackOffLikeTheKubeletsTellsTheSameStory(t *testing.T) {
	d, err := compare(t, "crash-loop", lab.WithCrashLoopBackOff(kubernetesBackOff))
	require.NoError(t, err)
	assert.True(t, d.Same, d.String())
	assert.Contains(t, d.String(), "lines are the same: here, your component behaves as the built-in one")
}

// A back-off that never doubles: the stories part where the second crash waits 10s instead of 20s.
func TestABackOffThatNeverDoublesPartsAtTheSecondCrash(t *testing.T) {
	d, err := compare(t, "crash-loop", lab.WithCrashLoopBackOff(func(time.Duration) time.Duration { return 10 * time.Second }))
	require.Error(t, err, "the scenario expects back-off 20s")
	require.False(t, d.Same)
	ref, yours := d.Reference[d.Equal], d.Yours[d.Equal]
	assert.Equal(t, ref.N, d.Equal+1)
	assert.Contains(t, ref.Message, "back-off 20s")
	assert.Contains(t, yours.Message, "back-off 10s")
	assert.True(t, strings.HasPrefix(yours.Component, "kubelet/"), yours.Component)
	assert.Equal(t, "14s", yours.Time) // the first retry: backOffPeriod 10s, its seeded jitter, the next 1s tick
	assert.True(t, strings.HasPrefix(yours.Step, "3. Each crash doubles"), yours.Step)
	report := d.String()
	for _, want := range []string{"your kubelet back-off in the place of the built-in one",
		"lines equal, first difference at line", "from kubelet/node-", `in step "3. Each crash doubles`,
		"reference:\n", "back-off 20s", "yours:\n", "back-off 10s"} {
		assert.Contains(t, report, want)
	}
	// The same run twice is the same diff: the report is deterministic.
	again, _ := compare(t, "crash-loop", lab.WithCrashLoopBackOff(func(time.Duration) time.Duration { return 10 * time.Second }))
	assert.Equal(t, report, again.String())
}

// myTaintToleration is a learner's TaintToleration: the default one's code under another name.
type myTaintToleration struct{ plugins.TaintToleration }

func (myTaintToleration) Name() string { return "MyTaintToleration" }

// ignoresTaints is a wrong one: every node passes its Filter.
type ignoresTaints struct{ myTaintToleration }

func (ignoresTaints) Filter(context.Context, *framework.CycleState, *api.Pod, *framework.NodeInfo) *framework.Status {
	return nil
}

func TestASchedulerPluginInThePlaceOfTaintToleration(t *testing.T) {
	same := lab.ReplacingSchedulerPlugin(plugins.TaintTolerationName, "MyTaintToleration",
		func(framework.Handle) (framework.Plugin, error) { return myTaintToleration{}, nil })
	d, err := compare(t, "taints", same)
	require.NoError(t, err)
	assert.True(t, d.Same, "a plugin that behaves like TaintToleration tells its story:\n%s", d)

	// The wrong plugin's run stops once the trainer pod is bound (on gpu-1, whose taint it ignores),
	// not waiting for a FailedScheduling that never comes. The stories part before that, where the
	// web pods are scheduled.
	wrong := lab.ReplacingSchedulerPlugin(plugins.TaintTolerationName, "MyTaintToleration",
		func(framework.Handle) (framework.Plugin, error) { return ignoresTaints{}, nil })
	d = compareUntil(t, "taints", "pod trainer bound", wrong)
	require.False(t, d.Same)
	ref, yours := d.Reference[d.Equal], d.Yours[d.Equal]
	assert.Equal(t, "kube-scheduler", yours.Component)
	assert.Contains(t, ref.Message, "2 of 4 nodes pass Filter", "the tainted nodes are filtered out")
	assert.Contains(t, yours.Message, "4 of 4 nodes pass Filter", "yours lets every node pass:\n%s", d)
}

// refuseWeb is an admission plugin that refuses the pods of Deployment web.
type refuseWeb struct{}

func (refuseWeb) Name() string { return "RefuseWeb" }
func (refuseWeb) Validate(_ context.Context, r apiserver.AdmissionRequest) error {
	if r.Resource == "pods" && strings.HasPrefix(r.Name, "nginx-") || r.Resource == "pods" && r.Name == "" {
		return errors.New("no nginx here")
	}
	return nil
}

func TestAnAdmissionPluginRefusesWhereTheReferenceCreates(t *testing.T) {
	// Your run stops at the ReplicaSet controller's first FailedCreate: no pod is ever created.
	d := compareUntil(t, "create-deployment", "event FailedCreate", lab.WithAdmission(refuseWeb{}))
	require.False(t, d.Same)
	yours := d.Yours[d.Equal]
	assert.Contains(t, yours.Message, "RefuseWeb", "the first line that differs is the plugin's refusal: %s", yours)
}

// builtinEndpoints is the built-in endpoints controller under another name, counting its work: what
// a learner's controller would be if it were Kubernetes' own.
type builtinEndpoints struct {
	*endpoints.Controller
	steps *int
}

func (b builtinEndpoints) Name() string { return "my-endpoints-controller" }
func (b builtinEndpoints) Step(ctx context.Context) (bool, error) {
	*b.steps++
	return b.Controller.Step(ctx)
}

func TestAControllerInThePlaceOfTheEndpointsController(t *testing.T) {
	steps := 0
	swap := lab.WithController(endpoints.Name, "my-endpoints-controller", func(_ context.Context, c *sim.Cluster) (sim.Component, error) {
		cl := c.Client(sim.ControllerManagerUser, "my-endpoints-controller")
		return builtinEndpoints{endpoints.New(cl, client.NewInformerFactory(cl, c.Clock, c.Trace), c.Clock, c.Trace), &steps}, nil
	})
	d, err := compare(t, "service", swap)
	require.NoError(t, err)
	assert.Positive(t, steps, "the swapped-in controller did the work")
	assert.True(t, d.Same, "the cluster saw the same writes:\n%s", d)

	off, err := lab.Without(endpoints.Name)
	require.NoError(t, err)
	d, _ = compare(t, "service", off)
	require.False(t, d.Same)
	ref := d.Reference[d.Equal]
	assert.Equal(t, endpoints.Name, ref.Component, "without the controller, the first thing missing is its work:\n%s", d)
	assert.Contains(t, ref.Message, "create Endpoints")
}

func TestWithoutKnowsTheDefaultPluginsAndControllers(t *testing.T) {
	_, err := lab.Without("NoSuchPlugin")
	assert.ErrorContains(t, err, `no default scheduler plugin or controller named "NoSuchPlugin"`)
	sc, _ := scenarios.Lookup("create-deployment")
	off, err := lab.Without("no-such-controller")
	require.NoError(t, err, "a controller's name is checked when the cluster boots")
	_, err = lab.PlayWith(ctx, sc, sim.PlayOptions{Seed: 1, Out: &strings.Builder{}}, off)
	assert.ErrorContains(t, err, `no controller named "no-such-controller" to replace`)
}

// Kubernetes' probe rule as a learner writes it, and a wrong one that acts on the first failure.
func kubernetesProbeRule(p *api.Probe, success bool, run int32) bool {
	threshold := p.FailureThreshold
	if success {
		threshold = p.SuccessThreshold
	}
	return run >= max(threshold, 1)
}

func TestProbeLogicInThePlaceOfTheKubelets(t *testing.T) {
	d, err := compare(t, "probes", lab.WithProbeThreshold(kubernetesProbeRule))
	require.NoError(t, err)
	assert.True(t, d.Same, d.String())

	firstFailure := func(_ *api.Probe, success bool, _ int32) bool { return true }
	d, _ = compare(t, "probes", lab.WithProbeThreshold(firstFailure))
	require.False(t, d.Same)
	yours := d.Yours[d.Equal]
	assert.True(t, strings.HasPrefix(yours.Component, "kubelet/"), yours.Component)
	assert.Contains(t, yours.Message, "failure after 1 consecutive failures",
		"the probe fails at its first failure, not its failureThreshold-th:\n%s", d)
}

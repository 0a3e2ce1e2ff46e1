package framework_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// fragile passes node "a", fails on "b" and panics on "c", at Filter and at Score; "Second" also
// panics on "d".
type fragile struct{ name string }

func (p fragile) Name() string                             { return p.name }
func (fragile) Less(a, b *framework.QueuedPodInfo) bool    { return false }
func (fragile) ScoreExtensions() framework.ScoreExtensions { return nil }
func (fragile) Bind(context.Context, *framework.CycleState, *api.Pod, string) *framework.Status {
	return nil
}

func (p fragile) verdict(ni *framework.NodeInfo) *framework.Status {
	switch ni.Name() {
	case "b":
		return framework.AsStatus(errors.New("boom"))
	case "c":
		panic("kaboom")
	case "d":
		if p.name == "Second" {
			panic("second")
		}
	}
	return nil
}

func (p fragile) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	return p.verdict(ni)
}

func (p fragile) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	return 7, p.verdict(ni)
}

// A Filter or Score plugin that errors or panics on one node yields an Error status naming it, in
// the words Kubernetes uses, whichever plugin of several it is (the panic is caught once per node).
func TestAPanicInFilterOrScoreIsAnErrorNamingThePlugin(t *testing.T) {
	registry := framework.Registry{}
	var refs []framework.PluginRef
	for _, name := range []string{"First", "Second"} {
		registry[name] = func(framework.Handle) (framework.Plugin, error) { return fragile{name}, nil }
		refs = append(refs, framework.PluginRef{Name: name})
	}
	f, err := framework.NewFramework(registry, framework.Profile{SchedulerName: "s", Plugins: refs}, framework.Options{})
	require.NoError(t, err)
	ctx, pod := context.Background(), &api.Pod{}
	node := func(name string) *framework.NodeInfo {
		return framework.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
	}

	assert.True(t, f.RunFilterPlugins(ctx, framework.NewCycleState(), pod, node("a")).IsSuccess())
	st := f.RunFilterPlugins(ctx, framework.NewCycleState(), pod, node("b"))
	assert.Equal(t, framework.Error, st.Code())
	assert.Equal(t, `running "First" filter plugin: boom`, st.Message())
	st = f.RunFilterPlugins(ctx, framework.NewCycleState(), pod, node("c"))
	assert.Equal(t, framework.Error, st.Code())
	assert.Equal(t, `running "First" filter plugin: plugin "First" panicked: kaboom`, st.Message())
	assert.Equal(t, "First", st.Plugin())
	st = f.RunFilterPlugins(ctx, framework.NewCycleState(), pod, node("d"))
	assert.Equal(t, `running "Second" filter plugin: plugin "Second" panicked: second`, st.Message())
	assert.Equal(t, "Second", st.Plugin())

	scores, st := f.RunScorePlugins(ctx, framework.NewCycleState(), pod, []*framework.NodeInfo{node("a"), node("a2")})
	require.True(t, st.IsSuccess())
	assert.Equal(t, int64(14), scores[1].TotalScore)
	_, st = f.RunScorePlugins(ctx, framework.NewCycleState(), pod, []*framework.NodeInfo{node("a"), node("b")})
	assert.Equal(t, `running Score plugin "First": boom`, st.Message())
	_, st = f.RunScorePlugins(ctx, framework.NewCycleState(), pod, []*framework.NodeInfo{node("c"), node("a")})
	assert.Equal(t, `running Score plugin "First": plugin "First" panicked: kaboom`, st.Message())
	assert.Equal(t, "First", st.Plugin())
	_, st = f.RunScorePlugins(ctx, framework.NewCycleState(), pod, []*framework.NodeInfo{node("a"), node("d")})
	assert.Equal(t, `running Score plugin "Second": plugin "Second" panicked: second`, st.Message())
}

package workloop_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/controllers/workloop"
)

// A controller that embeds Component is a client.Component: named by its Loop, fed by the
// informers it was given, in their order, and stepped by its Loop.
func TestComponentAnswersTheContractFromItsLoop(t *testing.T) {
	clk := clock.NewVirtual(time.Unix(0, 0))
	var seen []string
	l := newLoop(clk, func(_ context.Context, key string) (workloop.Result, error) {
		seen = append(seen, key)
		return workloop.Result{}, nil
	})
	f := client.NewInformerFactory(client.New(nil, "", "test-controller"), clk, nil)
	nodes := client.InformerFor[api.Node](f, client.FactoryOptions{})
	pods := client.InformerFor[api.Pod](f, client.FactoryOptions{})
	var c client.Component = workloop.NewComponent(l, nodes, pods)

	assert.Equal(t, "test-controller", c.Name())
	assert.Equal(t, []client.InformerHandle{nodes, pods}, c.Informers())
	l.Queue.Add("default/web")
	did, err := c.Step(context.Background())
	require.NoError(t, err)
	assert.True(t, did)
	assert.Equal(t, []string{"default/web"}, seen)
}

package workloop_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/workloop"
)

func newLoop(clk clock.Clock, reconcile func(context.Context, string) (workloop.Result, error)) *workloop.Loop {
	return &workloop.Loop{Queue: workqueue.New(clk, "test", workqueue.DefaultControllerRateLimiter[string]()),
		Reconcile: reconcile, Component: "test-controller"}
}

// A look that changes nothing is not a step of its own: Step goes on to the next key.
func TestStepSkipsIdleKeysUntilOneDoesWork(t *testing.T) {
	clk := clock.NewVirtual(time.Unix(0, 0))
	var seen []string
	l := newLoop(clk, func(_ context.Context, key string) (workloop.Result, error) {
		seen = append(seen, key)
		return workloop.Result{Idle: key != "b"}, nil
	})
	for _, k := range []string{"a", "b", "c"} {
		l.Queue.Add(k)
	}
	did, err := l.Step(context.Background())
	require.NoError(t, err)
	assert.True(t, did)
	assert.Equal(t, []string{"a", "b"}, seen, "a was idle, b did work, c waits for the next step")
	did, _ = l.Step(context.Background())
	assert.False(t, did, "c is idle and the queue is then empty")
}

// Periodic work is a key that requeues itself (wait.Until in Kubernetes' periodic controllers).
func TestRequeueAfterBringsTheKeyBackAfterThePeriod(t *testing.T) {
	clk := clock.NewVirtual(time.Unix(0, 0))
	passes := 0
	l := newLoop(clk, func(context.Context, string) (workloop.Result, error) {
		passes++
		return workloop.Result{RequeueAfter: 20 * time.Second}, nil
	})
	l.Queue.Add("pass")
	did, _ := l.Step(context.Background())
	require.True(t, did)
	did, _ = l.Step(context.Background())
	assert.False(t, did, "not due yet")
	clk.Advance(20 * time.Second)
	did, _ = l.Step(context.Background())
	assert.True(t, did)
	assert.Equal(t, 2, passes)
}

// With MaxRetries, a key that keeps failing is dropped: it no longer comes back by itself.
func TestAKeyFailingMaxRetriesTimesIsDropped(t *testing.T) {
	clk := clock.NewVirtual(time.Unix(0, 0))
	tries := 0
	l := newLoop(clk, func(context.Context, string) (workloop.Result, error) {
		tries++
		return workloop.Result{}, assert.AnError
	})
	l.MaxRetries = 2
	l.Queue.Add("default/web")
	for range 10 {
		l.Step(context.Background())
		clk.Advance(time.Minute)
	}
	assert.Equal(t, 3, tries, "the first try and two retries")
	assert.Equal(t, 0, l.Queue.Len())
}

// Run reconciles keys as they come on its workers and returns once ctx ends.
func TestRunReconcilesUntilTheContextEnds(t *testing.T) {
	done := make(chan string, 1)
	l := newLoop(clock.NewReal(1), func(_ context.Context, key string) (workloop.Result, error) {
		done <- key
		return workloop.Result{}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		l.Run(ctx)
		close(stopped)
	}()
	l.Queue.Add("default/web")
	assert.Equal(t, "default/web", <-done)
	cancel()
	<-stopped
}

// A controller that embeds Component is a client.Component: named by its Loop, fed by the
// informers it was given, in their order, and stepped by its Loop.
func TestComponentAnswersTheContractFromItsLoop(t *testing.T) {
	clk := clock.NewVirtual(time.Unix(0, 0))
	var seen []string
	l := newLoop(clk, func(_ context.Context, key string) (workloop.Result, error) {
		seen = append(seen, key)
		return workloop.Result{}, nil
	})
	nodes, pods := &informer{name: "nodes"}, &informer{name: "pods"}
	var c client.Component = workloop.NewComponent(l, nodes, pods)

	assert.Equal(t, "test-controller", c.Name())
	assert.Equal(t, []client.InformerHandle{nodes, pods}, c.Informers())
	l.Queue.Add("default/web")
	did, err := c.Step(context.Background())
	require.NoError(t, err)
	assert.True(t, did)
	assert.Equal(t, []string{"default/web"}, seen)
}

// informer stands for an informer the loop never runs: Component only hands it on.
type informer struct {
	client.InformerHandle
	name string
}

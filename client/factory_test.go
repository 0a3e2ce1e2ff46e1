package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
)

// One informer per resource and options: asking again returns the same informer, asking for another
// namespace or selection makes another one.
func TestInformerFactoryMakesOneInformerPerResourceAndOptions(t *testing.T) {
	e := newEnv(t, clock.NewVirtual(time.Unix(0, 0)))
	f := client.NewInformerFactory(e.admin, e.clock, e.trace)

	pods := client.InformerFor[api.Pod](f, client.FactoryOptions{})
	assert.Same(t, pods, client.InformerFor[api.Pod](f, client.FactoryOptions{}))
	nodes := client.InformerFor[api.Node](f, client.FactoryOptions{})
	inDefault := client.InformerFor[api.Pod](f, client.FactoryOptions{Namespace: "default"})
	labelled := client.InformerFor[api.Pod](f, client.FactoryOptions{LabelSelector: "app=web"})
	assert.NotSame(t, pods, inDefault)
	assert.NotSame(t, pods, labelled)

	assert.Equal(t, []client.InformerHandle{pods, nodes, inDefault, labelled}, f.Informers(), "in the order first asked for")
}

// Two controllers on one shared informer: each change reaches their handlers in the order they were
// added, so a step-mode run is the same every time.
func TestSharedInformerCallsHandlersInRegistrationOrder(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, clock.NewVirtual(time.Unix(0, 0)))
	f := client.NewInformerFactory(e.admin, e.clock, e.trace)
	var calls []string
	for _, who := range []string{"first", "second"} {
		client.InformerFor[api.ServiceAccount](f, client.FactoryOptions{}).AddHandler(client.Handler[*api.ServiceAccount]{
			OnAdd: func(sa *api.ServiceAccount) {
				if sa.Name != "default" { // the namespaces' own, listed at Sync
					calls = append(calls, who+" "+sa.Name)
				}
			},
		})
	}
	inf := client.InformerFor[api.ServiceAccount](f, client.FactoryOptions{})
	require.NoError(t, inf.Sync(ctx))
	for _, name := range []string{"a", "b"} {
		_, err := client.For[api.ServiceAccount](e.admin).Create(ctx, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}})
		require.NoError(t, err)
	}
	drain(t, e, inf)
	assert.Equal(t, []string{"first a", "second a", "first b", "second b"}, calls)
}

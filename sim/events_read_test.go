package sim_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// Events, which decodes only the Events etcd wrote since its last call, and so Objects for events,
// list what the apiserver's list of events lists after every kind of change: a new Event, one whose count grew, one deleted,
// in one namespace and in all; and it hands back the Event it decoded before for a key etcd did not
// touch.
func TestEventsListsWhatTheAPIServerLists(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Seed: 1})
	require.NoError(t, err)
	defer c.Close()
	events := client.For[api.Event](c.Client("test-admin", "test", "system:masters"))
	create := func(namespace, name, reason string) *api.Event {
		ev, err := events.Create(ctx, &api.Event{
			ObjectMeta:     api.ObjectMeta{Name: name, Namespace: namespace},
			InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: namespace, Name: "p", APIVersion: "v1"},
			Reason:         reason, Message: "about " + name, Type: "Normal", Count: 1,
		})
		require.NoError(t, err)
		return ev
	}
	same := func(namespace string) []*api.Event {
		t.Helper()
		got, err := c.Events(ctx, namespace)
		require.NoError(t, err)
		want, _, err := events.List(ctx, namespace, client.ListOptions{}) // through the apiserver, from etcd
		require.NoError(t, err)
		assert.Equal(t, asJSON(t, append([]*api.Event{}, want...)), asJSON(t, got), "namespace %q", namespace)
		listed, err := sim.List[api.Event](ctx, c, namespace, "", "") // Objects sorts by name alone
		require.NoError(t, err)
		assert.Equal(t, asJSON(t, sortedByName(want)), asJSON(t, listed), "namespace %q", namespace)
		return got
	}

	assert.Empty(t, same("default"))
	create("default", "a", "Scheduled")
	first := create("default", "b", "Pulled")
	create("kube-system", "c", "Started")
	before := same("default")
	require.Len(t, before, 2)
	same("")

	first.Count, first.Message = 2, "about b, again"
	_, err = events.Update(ctx, first)
	require.NoError(t, err)
	create("default", "d", "Killing")
	_, _, err = events.Delete(ctx, "default", "a", client.DeleteOptions{})
	require.NoError(t, err)
	after := same("default")
	require.Len(t, after, 2)
	assert.Equal(t, int32(2), after[0].Count, "b's count grew")
	assert.NotSame(t, before[1], after[0], "b was written again: decoded again")
	assert.Equal(t, "about b", before[1].Message, "an Event handed out before is not changed under its reader")

	again := same("default")
	assert.Same(t, after[0], again[0], "nothing written: the Event decoded before")
	assert.Same(t, after[1], again[1])
	same("kube-system")
	same("")
}

func sortedByName(evs []*api.Event) []*api.Event {
	out := append([]*api.Event{}, evs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].Name < out[i].Name {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

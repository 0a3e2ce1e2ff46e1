package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// kube-apiserver's --event-ttl is an hour of the cluster's time: on a cluster sped up 3,600 times an
// Event is gone a second or two of wall time after its last write (etcd's lease, rounded up to whole
// seconds), not an hour later.
func TestEventsExpireAfterAnHourOfTheClustersTime(t *testing.T) {
	t.Parallel() // it waits for etcd to expire a lease on the wall clock, beside the others that wait
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Speed: 3600, Seed: 1})
	require.NoError(t, err)
	defer c.Close()
	admin := c.Client("test-admin", "test", "system:masters")
	_, err = client.For[api.Event](admin).Create(ctx, &api.Event{
		ObjectMeta:     api.ObjectMeta{Name: "short-lived", Namespace: "default"},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "p", APIVersion: "v1"},
		Reason:         "Testing", Message: "gone within the hour", Type: "Normal", Count: 1,
	})
	require.NoError(t, err)
	events := func() int {
		list, err := sim.List[api.Event](ctx, c, "default", "", "short-lived")
		require.NoError(t, err)
		return len(list)
	}
	require.Equal(t, 1, events())

	gone := false
	for deadline := time.Now().Add(30 * time.Second); !gone && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		gone = events() == 0
	}
	assert.True(t, gone, "the Event outlived an hour of the cluster's time (30 s of wall time at speed 3600)")
}

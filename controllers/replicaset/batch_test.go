package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/client/workqueue"
	"kubesim/clock"
)

// A status-only change queues its ReplicaSet at once while no sync cost is known (or syncs cost no
// cluster time, as in step mode), and four times the last claim-and-count later once one is.
func TestStatusChangeWaitsFourTimesTheLastCount(t *testing.T) {
	clk := clock.NewVirtual(rankNow)
	c := &Controller{clock: clk, queue: workqueue.New(clk, "replicaset", workqueue.DefaultControllerRateLimiter[string]()),
		syncTook: map[string]time.Duration{}}
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}}
	take := func() bool {
		key, ok := c.queue.TryGet()
		if ok {
			c.queue.Done(key)
		}
		return ok
	}

	c.enqueueStatusChange(rs)
	assert.True(t, take(), "no cost known yet: at once")
	c.noteCountCost(rs.Key(), 0)
	c.enqueueStatusChange(rs)
	assert.True(t, take(), "a count that took no cluster time: at once")

	c.noteCountCost(rs.Key(), 10*time.Millisecond)
	c.enqueueStatusChange(rs)
	c.enqueueStatusChange(rs) // a second change within the batch joins the first
	clk.Advance(39 * time.Millisecond)
	assert.False(t, take(), "queued before four times the count")
	clk.Advance(time.Millisecond)
	assert.True(t, take())
	assert.False(t, take(), "two changes, one sync")

	c.forgetCountCost(rs.Key())
	c.enqueueStatusChange(rs)
	assert.True(t, take(), "a deleted ReplicaSet's cost is forgotten")
}

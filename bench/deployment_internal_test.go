package bench

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/apiserver"
	"kubesim/wire"
)

// writeCounts keeps the successful writes made between two readings of the counters, most first.
func TestWriteCountsAreTheSuccessfulWritesBetweenTwoReadings(t *testing.T) {
	before := []apiserver.RequestCount{
		{Verb: wire.VerbCreate, Resource: "pods", Code: 201, Count: 5},
		{Verb: wire.VerbUpdate, Resource: "pods", Code: 200, Count: 2},
	}
	after := []apiserver.RequestCount{
		{Verb: wire.VerbCreate, Resource: "pods", Code: 201, Count: 15},
		{Verb: wire.VerbUpdate, Resource: "pods", Code: 200, Count: 2},    // no change: left out
		{Verb: wire.VerbUpdate, Resource: "pods", Code: 409, Count: 7},    // conflicts wrote nothing
		{Verb: wire.VerbList, Resource: "pods", Code: 200, Count: 100},    // reads are not writes
		{Verb: wire.VerbCreate, Resource: "events", Code: 201, Count: 30}, // new series
	}
	assert.Equal(t, []apiserver.RequestCount{
		{Verb: wire.VerbCreate, Resource: "events", Count: 30},
		{Verb: wire.VerbCreate, Resource: "pods", Count: 10},
	}, writeCounts(before, after))
}

// The floor is the rollout's writes at the raw rate of values their mean size; the small floor the
// same writes at the rate of 14-byte values, as the figure was before.
func TestFloorIsTheWritesAtTheRawRateOfTheirSize(t *testing.T) {
	r := DeploymentResult{Replicas: 10, EtcdWrites: 3000, WrittenBytes: 3000 * 1200, RawPerSecond: 1000, SmallPerSecond: 2000, Wall: 6 * time.Second}
	assert.Equal(t, 1200, r.MeanWrite())
	assert.Equal(t, 3*time.Second, r.Floor())
	assert.Equal(t, 1500*time.Millisecond, r.SmallFloor())
	assert.Contains(t, r.String(), "= 2.0 x the floor of its 3000 etcd writes")
	assert.Contains(t, r.String(), "1200 B each on average) at the raw put rate of values that size (1000/s): 3s; 4.0 x the floor at the raw rate of 14-byte values (2000/s): 1.5s")
	assert.Zero(t, DeploymentResult{}.MeanWrite(), "no writes, no mean")
	assert.Len(t, paddedJSON(1200), 1200, "the raw puts' values are the writes' mean size")
	assert.JSONEq(t, `{"bench":""}`, string(paddedJSON(3)))
}

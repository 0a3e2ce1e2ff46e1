package bench

import (
	"testing"

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

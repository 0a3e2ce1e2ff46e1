package sim

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// asks replays pauses through r and reports at which it asked the learner.
func asks(r *Resume, pauses ...Pause) []bool {
	var out []bool
	for _, p := range pauses {
		out = append(out, r.Ask(context.Background(), p))
	}
	return out
}

// A pause that told nothing is never asked at; next N lets N-1 telling pauses go by.
func TestResumeNextCountsOnlyPausesThatTell(t *testing.T) {
	told, quiet := Pause{}, Pause{Quiet: true}
	var r Resume
	assert.Equal(t, []bool{false, true}, asks(&r, quiet, told))
	r.Next(3)
	assert.Equal(t, []bool{false, false, false, true}, asks(&r, told, quiet, told, told))
}

// continue and section let everything go by but a breakpoint; section stops once a heading is told.
func TestResumeContinueAndSectionStopAtBreakpoints(t *testing.T) {
	var r Resume
	r.Continue()
	assert.Equal(t, []bool{false, false, true, true}, asks(&r, Pause{}, Pause{}, Pause{Why: "scheduler bind"}, Pause{}))
	r.Section(Pause{Headings: 4})
	assert.Equal(t, []bool{false, false, true}, asks(&r, Pause{Headings: 4}, Pause{Headings: 4}, Pause{Headings: 5}))
	r.Section(Pause{Headings: 5})
	assert.Equal(t, []bool{true}, asks(&r, Pause{Headings: 5, Why: "etcd put /registry/pods"}))
}

// until asks when the condition holds, and says which held.
func TestResumeUntilAsksWhenTheConditionHolds(t *testing.T) {
	held := false
	var r Resume
	r.Until(Check("the thing", func() (bool, error) { return held, nil }))
	assert.Equal(t, []bool{false, false}, asks(&r, Pause{}, Pause{}))
	held = true
	assert.Equal(t, []bool{true}, asks(&r, Pause{}))
	assert.Equal(t, "the thing", r.Held)
}

package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	crashloopbackoff "kubesim/examples/labs/crashloop-backoff"
	"kubesim/lab"
)

func swap(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestItNamesWhatItCannotPlay(t *testing.T) {
	code, _, errOut := swap("informer-relist", "crash-loop")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `lab "informer-relist" has no component to swap into a scenario; these do: filter-plugin, score-plugin`)
	code, _, errOut = swap("crashloop-backoff", "no-such-scenario")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no scenario "no-such-scenario"`)
	code, _, _ = swap("crashloop-backoff")
	assert.Equal(t, 2, code)
}

// The skeleton is not started, and says how to play the reference; the reference solution (-tags
// solution) tells Kubernetes' story.
func TestTheCrashLoopBackOffLab(t *testing.T) {
	started := crashloopbackoff.Started() == nil
	if started && !lab.Reference {
		t.Skip("your Delay is written: its grader checks it (go test ./examples/labs/crashloop-backoff)")
	}
	code, out, errOut := swap("--story=false", "crashloop-backoff", "crash-loop")
	if !started {
		assert.Equal(t, 1, code)
		assert.Contains(t, errOut, "lab crashloop-backoff is not started: TODO(lab): write Delay")
		assert.Contains(t, errOut, "go run -tags solution ./examples/labs/swap crashloop-backoff crash-loop")
		return
	}
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "story diff (your kubelet back-off in the place of the built-in one)")
	assert.Contains(t, out, "lines are the same: here, your component behaves as the built-in one.")
}

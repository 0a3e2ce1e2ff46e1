package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	crashloopbackoff "kubesim/examples/labs/crashloop-backoff"
)

func TestRunWithChecksItsFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "crash-loop", "--with", "NoSuch"}, `"NoSuch": give -NAME`},
		{[]string{"run", "crash-loop", "--with", "-NoSuch"}, `no default scheduler plugin or controller named "NoSuch"`},
		{[]string{"run", "crash-loop", "--with", "-TaintToleration", "--speed", "10"}, "leave out --speed"},
		{[]string{"run", "crash-loop", "--with", "-TaintToleration", "--trace", "json"}, "leave out --trace json"},
		{[]string{"run", "crash-loop", "--with", "lab:crashloop-backoff", "--with", "-TaintToleration"}, "give it alone"},
		{[]string{"run", "crash-loop", "--with", "lab:crashloop-backoff", "--nodes", "2"}, "takes only --seed and --verbose"},
	} {
		code, _, errOut := kubesim(c.args...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, errOut, c.want, c.args)
	}
}

// Without the endpoints controller the service scenario parts from the reference where the
// controller would have written Endpoints web, and the diff says so after the story.
func TestRunWithoutAControllerShowsWhereTheStoryParts(t *testing.T) {
	code, out, _ := kubesim("run", "service", "--with", "-endpoints-controller", "--color", "never")
	assert.Equal(t, 1, code, "the scenario expects endpoints:\n%s", out)
	assert.Contains(t, out, "scenario service failed")
	assert.Contains(t, out, "story diff (the controller endpoints-controller turned off) against the reference story")
	assert.Regexp(t, `\d+ lines equal, first difference at line \d+ \(at 200ms, from reference endpoints-controller, yours \S+, in step "3\. `, out)
	assert.Contains(t, out, "endpoints-controller    create: Service default/web: create Endpoints: <none>")
}

// lab:LAB builds the learner's tree; an untouched skeleton is "not started", with the command that
// plays the reference solution.
func TestRunWithALabThatIsNotStarted(t *testing.T) {
	t.Parallel() // it waits for go build, beside the serve tests, which wait in real time
	if testing.Short() {
		t.Skip("builds examples/labs/swap")
	}
	if crashloopbackoff.Started() == nil {
		t.Skip("Delay is written in this tree (or graded with -tags solution): nothing is left not started")
	}
	code, _, errOut := kubesim("run", "crash-loop", "--with", "lab:crashloop-backoff")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "your code, compiled now: go run ./examples/labs/swap --seed 1 --verbose=false crashloop-backoff crash-loop")
	assert.Contains(t, errOut, "lab crashloop-backoff is not started: TODO(lab): write Delay")
	assert.Contains(t, errOut, "go run -tags solution ./examples/labs/swap crashloop-backoff crash-loop")
	// The program stays in the user's cache directory for the next run, which go build then leaves
	// as it is unless the tree changed; the run's own hard link to it is gone with the run.
	root, err := moduleRoot()
	require.NoError(t, err)
	private := filepath.Join(t.TempDir(), "swap")
	if kept := swapBinary(root, private); kept != private {
		assert.FileExists(t, kept, "the swap program built by the run")
	}
}

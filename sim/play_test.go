// Tests of how a play ends, each with the line the story ends on: every sign seen, stopped where the
// learner asked (a breakpoint, a number of steps, q at the prompt), a breakpoint that never held, and
// an interruption (Ctrl-C), which is neither a pass nor a failed check.
package sim_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/narrate"
	"kubesim/sim"
)

const onePodManifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx:1.27
`

// onePod applies a pod and runs the cluster for 200 units of work.
var onePod = sim.Scenario{
	Name:    "one-pod",
	Summary: "a pod, scheduled and started",
	Cluster: sim.FullCluster(1),
	Run: func(ctx context.Context, s *sim.Session) error {
		s.Step("kubectl apply a pod")
		_, err := s.Kubectl.Apply(ctx, []byte(onePodManifest))
		s.Expect(err == nil, "the pod is created (%v)", err)
		s.Step("the cluster runs it")
		if err := s.Driver.RunIdle(ctx, 200); err != nil {
			return err
		}
		s.Expect(true, "the cluster settled")
		return s.Err()
	},
}

// condition is a breakpoint with a fixed answer.
type condition bool

func (c condition) String() string {
	if c {
		return "always"
	}
	return "never"
}

func (c condition) Met(context.Context, *sim.Cluster) (bool, error) { return bool(c), nil }

func playOnePod(ctx context.Context, t *testing.T, o sim.PlayOptions) (string, error) {
	t.Helper()
	var out bytes.Buffer
	o.Seed, o.Out, o.Narrate = 1, &out, narrate.Options{Width: 1000}
	err := sim.Play(ctx, onePod, o)
	return out.String(), err
}

func TestPlayEndsWithEverySignSeen(t *testing.T) {
	out, err := playOnePod(t.Context(), t, sim.PlayOptions{})
	require.NoError(t, err, out)
	assert.Contains(t, out, "every expected sign was seen")
}

func TestPlayStopsAfterMaxStepsAndSaysSo(t *testing.T) {
	out, err := playOnePod(t.Context(), t, sim.PlayOptions{MaxSteps: 5})
	require.NoError(t, err, out)
	assert.Contains(t, out, "stopped after 5 steps (")
	assert.NotContains(t, out, "breakpoint")
	assert.NotContains(t, out, "every expected sign")
}

func TestPlayStopsAtABreakpointThatHolds(t *testing.T) {
	out, err := playOnePod(t.Context(), t, sim.PlayOptions{Until: condition(true)})
	require.NoError(t, err, out)
	assert.Contains(t, out, "stopped at the breakpoint: always holds")
}

func TestPlayFailsWhenTheBreakpointNeverHolds(t *testing.T) {
	out, err := playOnePod(t.Context(), t, sim.PlayOptions{Until: condition(false)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "never never held: the scenario ran to its end first")
	assert.Contains(t, out, "scenario one-pod failed: never never held")
	assert.NotContains(t, out, "every expected sign")
	assert.True(t, sim.ToldInStory(err))

	out, err = playOnePod(t.Context(), t, sim.PlayOptions{Until: condition(false), MaxSteps: 5})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "never never held: the run stopped after 5 steps (--steps) first")
	assert.NotContains(t, out, "every expected sign")
}

func TestPlayStopsWhenThePromptSaysQuit(t *testing.T) {
	out, err := playOnePod(t.Context(), t, sim.PlayOptions{Pause: func(sim.Pause) bool { return false }})
	require.NoError(t, err, out)
	assert.Contains(t, out, "stopped at the prompt")
}

func TestPlayReportsAnInterruptionNotAFailedCheck(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, err := playOnePod(ctx, t, sim.PlayOptions{Pause: func(sim.Pause) bool { cancel(); return true }})
	require.Error(t, err)
	assert.True(t, errors.Is(err, sim.ErrInterrupted), "%v", err)
	assert.Contains(t, out, "\ninterrupted after ")
	assert.NotContains(t, out, "failed")
	assert.NotContains(t, out, "✗")
}

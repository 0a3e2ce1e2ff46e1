// serve_setup.go: setting a scenario up on a running cluster, for `kubesim serve --scenario`. A
// scenario's first steps build the state its story then investigates (apply a crash-looping pod, stop
// a kubelet); SetUp plays those steps of its Run and cuts the run where the next step would begin,
// before that step does anything, so the learner takes over the broken cluster with kubectl.
package sim

import (
	"context"
	"fmt"
)

// cut is the panic that unwinds a scenario's Run at the step where its set-up ends.
type cut struct{}

// SetUp plays sc.Run on c until the heading of its step steps+1, and stops it there. It is an error
// if the run ends before (a sign it waited for never came, a request failed); the signs the first
// steps check are told in the trace, not judged.
func SetUp(ctx context.Context, sc Scenario, c *Cluster, steps int) (err error) {
	s := NewSession(c)
	s.pause = func() {
		if s.steps == steps {
			panic(cut{})
		}
	}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(cut); !ok {
				panic(v)
			}
			err = nil
		}
	}()
	runErr := sc.Run(ctx, s)
	if runErr == nil {
		runErr = s.Err()
	}
	if runErr == nil {
		runErr = fmt.Errorf("it has only %d step(s)", s.steps)
	}
	return fmt.Errorf("scenario %s ended during its first %d step(s): %w", sc.Name, steps, runErr)
}

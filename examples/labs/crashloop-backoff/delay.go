//go:build !solution

// delay.go: the restart delay. This is where you work.
package crashloopbackoff

import (
	"time"

	"kubesim/lab"
)

// Delay is how long the kubelet waits before restarting a container that crashed, given the delay it
// waited last time (0 when this is the first crash, or the first after 10 minutes of running).
func Delay(previous time.Duration) (time.Duration, error) {
	// TODO(lab): the first crash waits Initial; each next one twice the previous delay, capped at Max.
	return 0, lab.TODO("write Delay in examples/labs/crashloop-backoff/delay.go")
}

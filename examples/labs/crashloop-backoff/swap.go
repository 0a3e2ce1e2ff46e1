// swap.go: your Delay outside the grader. Started is what the grader asks first (has Delay been
// written?); Swap puts it in every kubelet of any scenario, its story compared with the story of
// Kubernetes' own back-off:
//
//	go run ./examples/labs/swap crashloop-backoff crash-loop
package crashloopbackoff

import "kubesim/lab"

// Started is the TODO your Delay still answers, or nil once you have written it.
func Started() error {
	_, err := Delay(0)
	return lab.Unfinished(err)
}

// Swap is your Delay in the place of the kubelet's back-off.
func Swap() lab.Swap { return lab.WithCrashLoopBackOff(Policy()) }

//go:build solution

// delay_solution.go: the reference solution, built with -tags solution.
package crashloopbackoff

import "time"

// Delay doubles the previous delay, from Initial up to Max.
func Delay(previous time.Duration) (time.Duration, error) {
	if previous == 0 {
		return Initial, nil
	}
	return min(2*previous, Max), nil
}

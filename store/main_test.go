// main_test.go: the package's tests end with no goroutine left behind (go.uber.org/goleak).
package store_test

import (
	"testing"

	"kubesim/internal/testenv/robustness"
	"kubesim/internal/testenv/waiting"
)

func TestMain(m *testing.M) {
	// The parallel tests with a multi-member etcd mostly wait for its elections and request timeouts.
	waiting.Allow(4)
	robustness.VerifyNoLeaks(m)
}

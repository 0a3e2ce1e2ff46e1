// main_test.go: the package's tests end with no goroutine left behind (go.uber.org/goleak).
package bench_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

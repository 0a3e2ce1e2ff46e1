// main_test.go: the package's tests end with no goroutine left behind (go.uber.org/goleak).
package store_test

import (
	"testing"

	"go.uber.org/goleak"

	"kubesim/internal/testenv/waiting"
)

func TestMain(m *testing.M) {
	// The parallel tests with a multi-member etcd mostly wait for its elections and request timeouts.
	waiting.Allow(4)
	// A member of a multi-member etcd stopped hard, as a killed process is, can leave a peer's version
	// probe blocked in its HTTP handler on the closed backend's lock: that goroutine is the dead
	// member's, inside etcd, and ends with the process.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("go.etcd.io/etcd/server/v3/etcdserver/api/etcdhttp.newPeerHandler.versionHandler.func1"))
}

// leaks.go: the goroutine check of the packages whose tests stop etcd members.
package robustness

import (
	"testing"

	"go.uber.org/goleak"
)

// VerifyNoLeaks runs m's tests and fails them if a goroutine is left behind (goleak), but for the one
// a stopped member may leave: a member of a multi-member etcd stopped hard, as a killed process is,
// can leave a peer's version probe blocked in its HTTP handler on the closed backend's lock; that
// goroutine is the dead member's, inside etcd, and ends with the process.
func VerifyNoLeaks(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("go.etcd.io/etcd/server/v3/etcdserver/api/etcdhttp.newPeerHandler.versionHandler.func1"))
}

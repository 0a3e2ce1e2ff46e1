// leaks.go: the goroutine check of the packages whose tests stop etcd members.
package robustness

import (
	"testing"

	"go.uber.org/goleak"
)

// VerifyNoLeaks runs m's tests and fails them if a goroutine is left behind (goleak), but for the ones
// a stopped member may leave: a member of a multi-member etcd stopped hard, as a killed process is,
// can leave a peer's version probe blocked in its HTTP handler on the closed backend's lock, or the
// probe's idle keep-alive connection open (the server's side reading through etcd's connection
// multiplexer, cmux, the client's side in net/http's connection loops). They are the dead member's,
// inside etcd, and end with the process. Only the packages whose tests stop members use this.
func VerifyNoLeaks(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("go.etcd.io/etcd/server/v3/etcdserver/api/etcdhttp.newPeerHandler.versionHandler.func1"),
		goleak.IgnoreAnyFunction("github.com/soheilhy/cmux.(*MuxConn).Read"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"))
}

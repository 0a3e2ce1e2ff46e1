// Package robustness is what the linearizability tests share, after etcd's own robustness suite
// (go.etcd.io/etcd/tests/robustness): a register model for porcupine, clients that run seeded
// concurrent operations through any transport and record each call with its start and end, and the
// store faults they run under.
//
//	Model                    a register per key, compare-and-swap on resourceVersion (model.go)
//	Input, Output            one operation and its answer; Unknown is an answer that never came
//	Run                      concurrent seeded clients over a Transport, their history (run.go)
//	Check                    porcupine's verdict on a history, with counts of what happened
//	InjectFaults             slow etcd writes and compactions until stopped (faults.go)
//	VerifyNoLeaks            goleak's check of a TestMain, but for what a stopped member leaves (leaks.go)
//
// The transports live with their tests: Server.Do in apiserver's, HTTPS in the HTTP front's. Like
// the rest of internal/testenv, only tests import it; it imports neither sim nor apiserver, so that
// apiserver's own tests can use it.
package robustness

// Package clock is kubesim's one source of time. It mirrors k8s.io/utils/clock
// (the Clock interface that Kubernetes components take instead of calling the
// time package) and k8s.io/utils/clock/testing (the FakeClock their unit tests
// drive by hand).
//
// Read next: k8s.io/utils/clock/clock.go for the real interface, then
// k8s.io/utils/clock/testing/fake_clock.go for how Kubernetes' own tests step
// time; in kubesim, client/workqueue shows a component that waits through this
// package, and sim's step driver shows who advances a Virtual clock.
//
// Every kubesim component that waits (heartbeats, lease durations, backoffs,
// probe periods, eviction timeouts, image pull latency) takes a Clock and
// never calls time.Now, time.Sleep or time.After itself. That single rule is
// what lets the same code run in the two modes described in DESIGN.md:
//
//   - Real-time mode uses Real: the wall clock, optionally sped up. With
//     NewReal(60), one real second counts as sixty cluster seconds, so the
//     node lifecycle controller's 5-minute eviction timeout passes in 5 real
//     seconds.
//   - Step mode uses Virtual: time stands still until the step driver calls
//     Advance or AdvanceToNext. Timers fire in deadline order, ties in the
//     order the timers were created, so a scenario replays identically.
//
// What this package promises:
//
//  1. Timers and tickers behave like the time package's (Go 1.23 semantics):
//     Stop and Reset report whether the timer was pending, and no value sent
//     before a Stop or Reset is received after it returns.
//  2. Values received from C() are cluster time (Real: sped-up time; Virtual:
//     the virtual instant at which the timer fired).
//  3. A Virtual clock fires timers only inside Advance, AdvanceToNext or Sleep,
//     in (deadline, creation) order, running AfterFunc callbacks in the caller
//     without holding its lock, so a callback may create or stop timers.
//
// What it simplifies:
//
//   - There is no PassiveClock/WithTicker split as in k8s.io/utils; one
//     interface covers what kubesim's components use.
//   - Real's speed-up scales durations with floating point; at absurd speeds
//     durations shorter than a nanosecond of real time fire immediately.
package clock

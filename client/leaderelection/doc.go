// Package leaderelection is leader election on a Lease, as in client-go's tools/leaderelection: of
// several replicas of a component (kube-controller-manager, kube-scheduler), exactly one does the work
// at a time, and another takes over when it dies.
//
// Read next: leaderelection.go (the LeaderElector and its one decision, tryAcquireOrRenew), gate.go
// (running a component only while leading), then client-go's tools/leaderelection/leaderelection.go
// and Kubernetes' "Leases" concept page.
//
// How it works. The lock is a coordination.k8s.io/v1 Lease, kube-system/kube-controller-manager for
// the controller manager. Its spec records holderIdentity, leaseDurationSeconds, acquireTime,
// renewTime (microsecond MicroTimes) and leaseTransitions. Every retryPeriod each candidate reads the
// Lease:
//
//  1. If nobody holds it, or the holder has not renewed it for leaseDuration, the candidate writes
//     itself in as holder (acquireTime = now, leaseTransitions + 1). Optimistic concurrency
//     (resourceVersion) makes sure only one of several racing candidates wins.
//  2. The holder renews it (renewTime = now) every retryPeriod. If it cannot for renewDeadline (the
//     apiserver is unreachable, or someone else took the Lease), it stops leading.
//  3. "Has not renewed for leaseDuration" is judged on the candidate's own clock, from when it last
//     saw the Lease change, never by comparing renewTime with its clock: clocks of different machines
//     disagree, the duration a machine measures does not.
//
// Why leaseDuration > renewDeadline: a leader cut off from the apiserver stops after renewDeadline
// (10 s by default), while the others wait leaseDuration (15 s) before taking over, so two leaders
// never act at once as long as clocks run at the same rate.
//
// Defaults are kube-controller-manager's: leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s.
//
// What it simplifies: client-go adds random jitter to the acquire loop and, within one renewal,
// retries for renewDeadline measured from the start of that renewal; kubesim retries every
// retryPeriod without jitter (so that step mode stays reproducible) and gives up once renewDeadline
// has passed since the last successful renewal. Callbacks run synchronously in Step (client-go starts
// OnStartedLeading on its own goroutine), so they must be quick. ReleaseOnCancel is not offered.
package leaderelection

// leaderelection.go: the LeaderElector.
//
//	NewLeaderElector(c, clk, tr, cfg) (*LeaderElector, error)
//	IsLeader() bool, GetLeader() string
//	Name, Informers, Step, Run       a component like any other (client.Component)
//
// Step is one attempt: when the retry timer is due, read the Lease and acquire or renew it
// (tryAcquireOrRenew), then arm the timer again, retryPeriod later. Run loops Step in real time.
package leaderelection

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/trace"
)

// kube-controller-manager's defaults (--leader-elect-lease-duration, -renew-deadline, -retry-period).
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

// LeaseLock names the Lease that is the lock, and who is asking for it (resourcelock.LeaseLock).
type LeaseLock struct {
	Namespace string // kube-system
	Name      string // kube-controller-manager
	// Identity is written into holderIdentity; it must differ between candidates (Kubernetes uses
	// hostname_uuid).
	Identity string
}

func (l LeaseLock) String() string { return l.Namespace + "/" + l.Name }

// Callbacks are told about leadership (LeaderCallbacks). Each may be nil.
type Callbacks struct {
	// OnStartedLeading runs when this candidate becomes leader; ctx ends when it stops leading.
	OnStartedLeading func(ctx context.Context)
	// OnStoppedLeading runs when this candidate stops leading.
	OnStoppedLeading func()
	// OnNewLeader runs when the observed holder changes (including to this candidate).
	OnNewLeader func(identity string)
}

// Config is a LeaderElector's configuration (LeaderElectionConfig). Zero durations take the defaults.
type Config struct {
	Lock          LeaseLock
	LeaseDuration time.Duration
	RenewDeadline time.Duration
	RetryPeriod   time.Duration
	Callbacks     Callbacks
	// Name is the elector's name in the trace; "" means Lock.Identity.
	Name string
	// Events, if set, records the LeaderElection event on the Lease when this candidate becomes
	// leader ("<identity> became leader"), as client-go's resourcelock does.
	Events *client.EventRecorder
}

// LeaderElector campaigns for, holds and renews one Lease.
type LeaderElector struct {
	cfg    Config
	leases client.Resource[api.Lease, *api.Lease]
	clock  clock.Clock
	trace  *trace.Recorder
	wake   chan struct{} // poked when the timer fires, for Run

	// mu guards everything below.
	mu    sync.Mutex
	due   bool        // the retry timer fired: time for the next attempt
	timer clock.Timer // the retry timer, nil before the first attempt
	// observedRV, observedHolder, observedDuration and observedTime are the Lease as last seen, and
	// when (on this elector's clock) it was seen to change.
	observedRV       string
	observedHolder   string
	observedDuration time.Duration
	observedTime     time.Time
	reportedLeader   string
	leading          bool
	lastRenew        time.Time          // last successful acquire or renew
	stopLeading      context.CancelFunc // ends the ctx given to OnStartedLeading
	changed          chan struct{}      // closed and replaced whenever leading changes
	lastFailure      string             // why the last attempt did not acquire or renew; "" after a success
}

// NewLeaderElector checks cfg, applies the defaults and returns an elector that will try to acquire
// the Lease at its first Step.
func NewLeaderElector(c *client.Client, clk clock.Clock, tr *trace.Recorder, cfg Config) (*LeaderElector, error) {
	cfg.LeaseDuration = cmp.Or(cfg.LeaseDuration, DefaultLeaseDuration)
	cfg.RenewDeadline = cmp.Or(cfg.RenewDeadline, DefaultRenewDeadline)
	cfg.RetryPeriod = cmp.Or(cfg.RetryPeriod, DefaultRetryPeriod)
	switch {
	case cfg.Lock.Identity == "":
		return nil, fmt.Errorf("leaderelection: Lock.Identity must not be empty")
	case cfg.Lock.Namespace == "" || cfg.Lock.Name == "":
		return nil, fmt.Errorf("leaderelection: Lock needs a namespace and a name")
	case cfg.LeaseDuration <= cfg.RenewDeadline:
		return nil, fmt.Errorf("leaseDuration must be greater than renewDeadline")
	case cfg.RenewDeadline <= cfg.RetryPeriod:
		return nil, fmt.Errorf("renewDeadline must be greater than retryPeriod")
	}
	cfg.Name = cmp.Or(cfg.Name, cfg.Lock.Identity)
	return &LeaderElector{cfg: cfg, leases: client.For[api.Lease](c), clock: clk, trace: tr,
		wake: make(chan struct{}, 1), due: true, changed: make(chan struct{})}, nil
}

// Name is the elector's name in the trace.
func (e *LeaderElector) Name() string { return e.cfg.Name }

// Informers: none; the elector reads its Lease directly, as client-go's does.
func (e *LeaderElector) Informers() []client.InformerHandle { return nil }

// IsLeader reports whether this elector currently leads.
func (e *LeaderElector) IsLeader() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.leading
}

// GetLeader is the holder of the Lease as last observed.
func (e *LeaderElector) GetLeader() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.observedHolder
}

// leadership returns IsLeader and a channel closed at its next change, read together.
func (e *LeaderElector) leadership() (bool, <-chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.leading, e.changed
}

// Step makes one attempt to acquire or renew the Lease if the retry timer is due, and reports
// whether it did.
func (e *LeaderElector) Step(ctx context.Context) (bool, error) {
	e.mu.Lock()
	if !e.due {
		e.mu.Unlock()
		return false, nil
	}
	e.due = false
	e.mu.Unlock()

	ok := e.tryAcquireOrRenew(ctx)
	now := e.clock.Now()
	e.mu.Lock()
	leading, lastRenew := e.leading, e.lastRenew
	if ok {
		e.lastRenew, e.lastFailure = now, ""
	}
	e.mu.Unlock()
	switch {
	case ok && !leading:
		e.startLeading(ctx)
	case !ok && leading && now.Sub(lastRenew) >= e.cfg.RenewDeadline:
		e.trace.Record(trace.Event{Component: e.cfg.Name, Action: "lost", Object: e.object()}.
			Msgf("failed to renew lease %s: context deadline exceeded (last renewed %s ago, renewDeadline %s): %s stops leading",
				e.cfg.Lock, now.Sub(lastRenew), e.cfg.RenewDeadline, e.cfg.Lock.Identity))
		e.stop()
	}
	e.arm(e.cfg.RetryPeriod)
	return true, ctx.Err()
}

// Run campaigns in real time until ctx ends, then stops leading.
func (e *LeaderElector) Run(ctx context.Context) {
	defer e.stop()
	for {
		if _, err := e.Step(ctx); err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-e.wake:
		}
	}
}

// arm sets the retry timer to fire after d.
func (e *LeaderElector) arm(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.timer != nil {
		e.timer.Reset(d)
		return
	}
	e.timer = e.clock.AfterFunc(d, func() {
		e.mu.Lock()
		e.due = true
		e.mu.Unlock()
		select {
		case e.wake <- struct{}{}:
		default:
		}
	})
}

func (e *LeaderElector) startLeading(ctx context.Context) {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	e.mu.Lock()
	e.leading, e.stopLeading = true, cancel
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
	if cb := e.cfg.Callbacks.OnStartedLeading; cb != nil {
		cb(lctx)
	}
}

// stop ends leadership, if held.
func (e *LeaderElector) stop() {
	e.mu.Lock()
	if !e.leading {
		e.mu.Unlock()
		return
	}
	e.leading = false
	e.stopLeading()
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
	if cb := e.cfg.Callbacks.OnStoppedLeading; cb != nil {
		cb()
	}
}

func (e *LeaderElector) object() string { return "leases/" + e.cfg.Lock.String() }

// tryAcquireOrRenew is the one decision: read the Lease; if nobody holds it, the holder's lease has
// expired, or we hold it, write ourselves in with renewTime now. It reports whether we hold the Lease
// afterwards.
func (e *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	lock := e.cfg.Lock
	now := e.clock.Now()
	lease, err := e.leases.Get(ctx, lock.Namespace, lock.Name)
	if apierrors.IsNotFound(err) {
		lease = &api.Lease{ObjectMeta: api.ObjectMeta{Name: lock.Name, Namespace: lock.Namespace}}
		e.fill(lease, now, true)
		created, err := e.leases.Create(ctx, lease)
		if err != nil {
			e.failed(trace.Event{Component: e.cfg.Name, Action: "campaign", Object: e.object(), Detail: true},
				"error initially creating leader election record: %v", err)
			return false
		}
		e.observe(created, now)
		e.trace.Record(trace.Event{Component: e.cfg.Name, Action: "acquire", Object: e.object(), ResourceVersion: created.ResourceVersion}.
			Msgf("successfully acquired lease %s as %s (created it)", lock, lock.Identity))
		e.becameLeader(ctx, created)
		return true
	}
	if err != nil {
		e.failed(trace.Event{Component: e.cfg.Name, Action: "campaign", Object: e.object(), Detail: true},
			"error retrieving resource lock %s: %v", lock, err)
		return false
	}
	e.observe(lease, now)

	e.mu.Lock()
	holder, observedTime, duration, leading := e.observedHolder, e.observedTime, e.observedDuration, e.leading
	e.mu.Unlock()
	if holder != "" && holder != lock.Identity && observedTime.Add(duration).After(now) {
		e.failed(trace.Event{Component: e.cfg.Name, Action: "campaign", Object: e.object(), ResourceVersion: lease.ResourceVersion, Detail: true},
			"lock %s is held by %s and has not yet expired (last change seen %s ago, leaseDuration %s)", lock, holder, now.Sub(observedTime), duration)
		return false
	}

	taking := holder != lock.Identity
	e.fill(lease, now, taking)
	updated, err := e.leases.Update(ctx, lease)
	if err != nil {
		e.failed(trace.Event{Component: e.cfg.Name, Action: "campaign", Object: e.object(), Detail: true},
			"failed to update lock %s: %v", lock, err)
		return false
	}
	e.observe(updated, now)
	switch {
	case taking:
		e.trace.Record(trace.Event{Component: e.cfg.Name, Action: "acquire", Object: e.object(), ResourceVersion: updated.ResourceVersion}.
			Msgf("successfully acquired lease %s as %s (previous holder %q, leaseTransitions %d)", lock, lock.Identity, holder, *updated.Spec.LeaseTransitions))
	case !leading:
		e.trace.Record(trace.Event{Component: e.cfg.Name, Action: "acquire", Object: e.object(), ResourceVersion: updated.ResourceVersion}.
			Msgf("successfully acquired lease %s as %s (it already named us)", lock, lock.Identity))
	default:
		e.trace.Record(trace.Event{Component: e.cfg.Name, Action: "renew", Object: e.object(), ResourceVersion: updated.ResourceVersion, Detail: true}.
			Msgf("renewed lease %s", lock))
	}
	if !leading {
		e.becameLeader(ctx, updated)
	}
	return true
}

// failed records why an attempt did not acquire or renew the Lease, in the trace and for LastFailure.
func (e *LeaderElector) failed(ev trace.Event, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	e.mu.Lock()
	e.lastFailure = msg
	e.mu.Unlock()
	e.trace.Record(ev.Msgf(format, args...))
}

// LastFailure is why the last attempt to acquire or renew the Lease failed ("failed to update lock
// kube-system/kube-scheduler: ..."), or "" if it succeeded: what a stalled replica is stuck on.
func (e *LeaderElector) LastFailure() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lastFailure
}

// becameLeader records the LeaderElection event on the Lease (resourcelock's RecordEvent).
func (e *LeaderElector) becameLeader(ctx context.Context, lease *api.Lease) {
	if e.cfg.Events == nil {
		return
	}
	subject := api.DeepCopy(lease)
	subject.Kind, subject.APIVersion = "Lease", "coordination.k8s.io/v1"
	e.cfg.Events.Eventf(ctx, subject, api.EventTypeNormal, "LeaderElection", "%s became leader", e.cfg.Lock.Identity)
}

// fill writes this candidate into lease's spec. Taking over starts a new term: acquireTime now and
// one more leaseTransition; renewing keeps both.
func (e *LeaderElector) fill(lease *api.Lease, now time.Time, taking bool) {
	spec := &lease.Spec
	t := api.NewMicroTime(now)
	if taking {
		transitions := int32(0)
		if spec.HolderIdentity != nil && spec.LeaseTransitions != nil {
			transitions = *spec.LeaseTransitions + 1
		}
		spec.AcquireTime = &t
		spec.LeaseTransitions = &transitions
	}
	spec.HolderIdentity = api.Ptr(e.cfg.Lock.Identity)
	spec.LeaseDurationSeconds = api.Ptr(int32(e.cfg.LeaseDuration / time.Second))
	spec.RenewTime = &t
	if spec.LeaseTransitions == nil {
		spec.LeaseTransitions = api.Ptr[int32](0)
	}
}

// observe records the Lease as read at now. A change (a new resourceVersion) restarts the expiry
// countdown, measured on our own clock; a new holder is reported to OnNewLeader.
func (e *LeaderElector) observe(lease *api.Lease, now time.Time) {
	holder := ""
	if lease.Spec.HolderIdentity != nil {
		holder = *lease.Spec.HolderIdentity
	}
	duration := e.cfg.LeaseDuration
	if lease.Spec.LeaseDurationSeconds != nil {
		duration = time.Duration(*lease.Spec.LeaseDurationSeconds) * time.Second
	}
	e.mu.Lock()
	if lease.ResourceVersion != e.observedRV {
		e.observedRV, e.observedHolder, e.observedDuration, e.observedTime = lease.ResourceVersion, holder, duration, now
	}
	report := holder != "" && holder != e.reportedLeader
	if report {
		e.reportedLeader = holder
	}
	e.mu.Unlock()
	if report {
		e.trace.Record(trace.Event{Component: e.cfg.Name, Action: "observe", Object: e.object(), ResourceVersion: lease.ResourceVersion}.
			Msgf("new leader: %s", holder))
		if cb := e.cfg.Callbacks.OnNewLeader; cb != nil {
			cb(holder)
		}
	}
}

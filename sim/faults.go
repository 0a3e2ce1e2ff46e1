// faults.go: every way kubesim breaks a cluster on purpose, in one place. Each fault is a method on
// Cluster with its opposite, each says in the trace what it did, and each reproduces a failure from
// the articles with the signs a real cluster shows:
//
//	SlowEtcd / SlowEtcd(0)         fsync latency: every write, and so every step, slows (etcd-slow)
//	CompactEtcd                    history compacted: watches from older resourceVersions get 410
//	ExpireCredential / RenewCredential  a client certificate expires: 401 from then on
//	                               (kubelet-cert-expired); a new one is issued
//	Partition / Heal               a component is cut off from the apiserver and reconnected
//	                               (split-brain, local-autonomy)
//	Stop / Start                   a component stops and starts again: a kubelet stops heartbeating and
//	                               syncing (node-down); any other component is frozen, as a process
//	                               in a long GC pause or SIGSTOP is (a frozen leader still believes
//	                               it leads: split-brain)
//	KillControllerManager / KillScheduler  a control-plane replica dies (leader-election): its Lease
//	                               is left to expire and a standby takes over
//	RuntimeFault / RuntimeFault(nil)  a node's container runtime is slow, hung (runtime-hung), down,
//	                               or the node crashes and every container dies
//	SkewClock / SkewClock(0)       a node's clock is off: its TLS checks of the apiserver's certificate
//	                               fail (kubelet-cert-expired, the clock-skew variant)
//	WebhookFault (faults_webhook.go)  an admission webhook hangs, refuses connections or is slow
//	                               (webhook-timeout)
//	StopEtcdMember, PartitionEtcdMember, SlowEtcdMember, SnapshotEtcd, RestoreEtcdSnapshot
//	  (faults_etcd.go)             an etcd member dies, is cut off or slows; a snapshot is saved and
//	                               restored (etcd-quorum, etcd-leader-loss, etcd-snapshot)
package sim

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/apiserver"
	"kubesim/clock"
	fakeruntime "kubesim/runtime"
	"kubesim/trace"
	"kubesim/wire"
)

func (c *Cluster) fault(action, format string, args ...any) {
	c.Trace.Record(trace.Event{Component: "kubesim", Action: action}.Msgf(format, args...))
}

// SlowEtcd makes every etcd write wait d first (0 heals): the slow-disk fault. In step mode the wait
// passes in virtual time, so the trace shows each write taking d.
func (c *Cluster) SlowEtcd(d time.Duration) {
	c.Store.SetWriteLatency(d)
	if d == 0 {
		c.fault("heal", "etcd writes are fast again")
		return
	}
	c.fault("fault", "etcd's disk is slow: every write now waits %s for fsync", d)
}

// CompactEtcd compacts etcd's history up to its current revision.
func (c *Cluster) CompactEtcd(ctx context.Context) error {
	rev, err := c.cacheCaughtUp(ctx)
	if err != nil {
		return err
	}
	return c.APIServer.Compact(ctx, rev)
}

// cacheCaughtUp waits until the apiserver's watch cache has read etcd up to its current revision,
// and returns that revision.
func (c *Cluster) cacheCaughtUp(ctx context.Context) (int64, error) {
	rev, err := c.Store.CurrentRevision(ctx)
	if err != nil {
		return 0, err
	}
	return rev, c.APIServer.WaitForRevision(ctx, rev)
}

// ExpireCredential makes user's credential expire now: its next request gets 401 Unauthorized, as a
// client certificate past its NotAfter does. RenewCredential ends it.
//
// On a real node the certificate expires a year after it was signed, rotation having failed; a
// scenario cannot wait a year, so the fault brings the end to the present instead of the present to
// the end: a kubelet's current certificate keeps its file, serial and notBefore and now carries a
// notAfter a second ago. openssl on the node and the apiserver then agree that it has expired; only
// the life it shows, minutes instead of a year, is not a real one.
func (c *Cluster) ExpireCredential(user string) error {
	err := c.changeCredential(user, func(cr *apiserver.Credential, p *kubeletPKI) {
		cr.NotAfter = c.Now().Add(-time.Second)
		if p != nil {
			cert := p.current()
			cert.notAfter, cert.file = cr.NotAfter, nil
		}
	})
	if err != nil {
		return err
	}
	c.fault("fault", "the client certificate of %s has expired", user)
	return nil
}

// RenewCredential makes user's credential valid again. A kubelet gets a new client certificate,
// signed now for a year, in a new kubelet-client-<time>.pem that kubelet-client-current.pem now
// points to, as a node that bootstraps again after its certificate expired writes it (the old files
// stay); any other credential is valid forever again, as it was issued.
func (c *Cluster) RenewCredential(user string) error {
	err := c.changeCredential(user, func(cr *apiserver.Credential, p *kubeletPKI) {
		cr.NotBefore, cr.NotAfter = time.Time{}, time.Time{}
		if p == nil {
			return
		}
		cert := newClientCert(c.Now(), c.nodeNowLocked(p.node))
		if clientCertName(cert) == clientCertName(p.current()) {
			p.client = p.client[:len(p.client)-1] // written in the same second: the new file replaces the old
		}
		p.client = append(p.client, cert)
		cr.NotBefore, cr.NotAfter = cert.notBefore, cert.notAfter
	})
	if err != nil {
		return err
	}
	c.fault("heal", "the client certificate of %s was renewed", user)
	return nil
}

// changeCredential changes user's credential, and its node's /var/lib/kubelet/pki when the user is a
// kubelet (p is nil otherwise), under c.credMu, and gives the apiserver the changed credential.
func (c *Cluster) changeCredential(user string, change func(cr *apiserver.Credential, p *kubeletPKI)) error {
	c.credMu.Lock()
	defer c.credMu.Unlock()
	cr, ok := c.creds[user]
	if !ok {
		return fmt.Errorf("no credential was issued to %q", user)
	}
	change(&cr, c.kubeletPKI[user])
	c.putCredentialLocked(cr)
	return nil
}

// Partition cuts the component that names itself agent off from the apiserver: its requests fail
// and its watches break, as when the network between them fails. Heal reconnects it.
func (c *Cluster) Partition(agent string) {
	c.link(agent).cut(true)
	c.fault("fault", "network partition: %s can no longer reach kube-apiserver", agent)
}

// Heal ends a Partition.
func (c *Cluster) Heal(agent string) {
	c.link(agent).cut(false)
	c.fault("heal", "network healed: %s reaches kube-apiserver again", agent)
}

// stoppable is a component that can be stopped and started again (a kubelet).
type stoppable interface {
	Stop()
	Start()
}

// Stop stops the named component (a kubelet: the node-down fault). In step mode the driver no longer
// asks it for work.
func (c *Cluster) Stop(name string) error {
	comp, ok := c.components[name]
	if !ok {
		return fmt.Errorf("no component named %q", name)
	}
	if s, ok := comp.(stoppable); ok {
		s.Stop()
	}
	c.stopped[name] = true
	c.fault("fault", "%s stopped", name)
	return nil
}

// Start starts a stopped component again.
func (c *Cluster) Start(name string) error {
	comp, ok := c.components[name]
	if !ok {
		return fmt.Errorf("no component named %q", name)
	}
	if s, ok := comp.(stoppable); ok {
		s.Start()
	}
	delete(c.stopped, name)
	c.fault("heal", "%s started again", name)
	return nil
}

// link is one component's connection to the apiserver: a transport that a partition can cut, and
// whose TLS handshake checks the apiserver's serving certificate against the component's own clock.
type link struct {
	server atomic.Pointer[apiserver.Server] // the running kube-apiserver (restore.go restarts it)
	clock  clock.Clock                      // the cluster's clock
	agent  string
	before func(context.Context, *wire.Request)
	down   atomic.Bool
	skew   atomic.Int64 // how far the component's clock is off, in nanoseconds

	mu      sync.Mutex
	watches []wire.Watch // guarded by mu: open watches, broken by a cut
}

// errPartitioned is what a cut-off component sees: the connection fails, there is no HTTP status.
var errPartitioned = errors.New("connection refused")

func (l *link) Do(ctx context.Context, req *wire.Request) (*wire.Response, error) {
	if l.down.Load() {
		return nil, fmt.Errorf("%s %s: dial kube-apiserver: %w (network partition)", req.Verb, req.Resource, errPartitioned)
	}
	if skew := time.Duration(l.skew.Load()); skew != 0 {
		// The client verifies the apiserver's serving certificate with its own idea of the time.
		now := l.clock.Now().Add(skew)
		notBefore, notAfter := servingCertValidity()
		switch {
		case now.Before(notBefore):
			return nil, fmt.Errorf("tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time %s is before %s",
				now.UTC().Format(time.RFC3339), notBefore.UTC().Format(time.RFC3339))
		case now.After(notAfter):
			return nil, fmt.Errorf("tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time %s is after %s",
				now.UTC().Format(time.RFC3339), notAfter.UTC().Format(time.RFC3339))
		}
	}
	l.before(ctx, req) // a breakpoint before the request is sent (breakpoint.go)
	resp, err := l.server.Load().Do(ctx, req)
	if err == nil && resp.Watch != nil {
		l.mu.Lock()
		open := l.watches[:0]
		for _, w := range l.watches {
			if !w.Done() {
				open = append(open, w)
			}
		}
		l.watches = append(open, resp.Watch)
		l.mu.Unlock()
	}
	return resp, err
}

func (l *link) cut(down bool) {
	l.down.Store(down)
	if down {
		l.breakWatches()
	}
}

// breakWatches ends every watch open on the link, as a broken connection does.
func (l *link) breakWatches() {
	l.mu.Lock()
	ws := l.watches
	l.watches = nil
	l.mu.Unlock()
	for _, w := range ws {
		w.Stop()
	}
}

func (c *Cluster) link(agent string) *link {
	c.credMu.Lock()
	defer c.credMu.Unlock()
	l, ok := c.links[agent]
	if !ok {
		l = &link{clock: c.Clock, agent: agent, before: c.beforeRequest}
		l.server.Store(c.APIServer)
		c.links[agent] = l
	}
	return l
}

// RuntimeFault injects a fault into a node's container runtime: fakeruntime.FaultSlow{Delay},
// FaultHung{} (calls block: the kubelet's PLEG stops and the node goes NotReady, containers keep
// running), FaultDown{} (calls fail at once), FaultKill{} (every container dies); nil heals it.
func (c *Cluster) RuntimeFault(node string, f fakeruntime.Fault) error {
	n, ok := c.nodes[node]
	if !ok {
		return fmt.Errorf("no node named %q", node)
	}
	n.Runtime.SetFault(f)
	if f == nil {
		c.fault("heal", "the container runtime on %s answers normally again", node)
		return nil
	}
	c.fault("fault", "the container runtime on %s: %s", node, describeRuntimeFault(f))
	return nil
}

func describeRuntimeFault(f fakeruntime.Fault) string {
	switch f := f.(type) {
	case fakeruntime.FaultSlow:
		return fmt.Sprintf("every call now takes %s longer", f.Delay)
	case fakeruntime.FaultHung:
		return "stopped answering (hung)"
	case fakeruntime.FaultDown:
		return "is down: its socket refuses connections"
	case fakeruntime.FaultKill:
		return "the node crashed: every container died"
	}
	return fmt.Sprintf("%T", f)
}

// servingCertValidity is the apiserver's serving certificate's validity: issued at the epoch, for a
// year, as kubeadm issues it.
func servingCertValidity() (time.Time, time.Time) {
	return Epoch, Epoch.AddDate(1, 0, 0)
}

// SkewClock sets how far a node's clock is off (0 heals). kubesim keeps one cluster time for everyone;
// what the skew changes is the node's TLS checks: a node far in the past or future finds the
// apiserver's certificate not yet valid or expired, and every request fails before it is sent, so the
// node stops renewing its Lease and goes NotReady.
func (c *Cluster) SkewClock(node string, d time.Duration) error {
	if _, ok := c.nodes[node]; !ok {
		return fmt.Errorf("no node named %q", node)
	}
	c.link("kubelet/" + node).skew.Store(int64(d))
	if d == 0 {
		c.fault("heal", "the clock of %s is right again", node)
		return nil
	}
	c.fault("fault", "the clock of %s is off by %s (NTP is not running)", node, d)
	return nil
}

// KillControllerManager kills a kube-controller-manager replica: its elector and every controller
// stop at once. Its Lease is not released (a crashed process releases nothing): a standby takes over
// once the Lease expires.
func (c *Cluster) KillControllerManager(name string) error {
	cm, ok := c.controllerManagers[name]
	if !ok {
		return fmt.Errorf("no kube-controller-manager replica named %q", name)
	}
	for _, part := range cm.parts {
		c.stopped[part] = true
	}
	c.fault("fault", "%s was killed: its controllers stop, its Lease is left to expire", name)
	return nil
}

// KillScheduler kills a kube-scheduler replica (its elector and the scheduler) the same way.
func (c *Cluster) KillScheduler(name string) error {
	if _, ok := c.schedulers[name]; !ok {
		return fmt.Errorf("no kube-scheduler named %q", name)
	}
	c.stopped[name] = true
	c.stopped[name+"/scheduling"] = true
	c.fault("fault", "%s was killed: it schedules nothing more, its Lease is left to expire", name)
	return nil
}

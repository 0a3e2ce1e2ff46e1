// restore.go: restoring etcd under a running control plane, the way Kubernetes' guide to operating
// etcd says to (https://kubernetes.io/docs/tasks/administer-cluster/configure-upgrade-etcd/):
//
//	RestoreEtcdSnapshot(ctx, file)   stop kube-apiserver, restore etcd, start kube-apiserver again
//	startAPIServer                   kube-apiserver on the cluster's etcd (at boot, and after a restore)
//
// The restored etcd holds the snapshot's revision, older than the ones every watcher has seen; a
// watch resumed from one of those would wait for revisions that now mean something else. So the
// restore bumps the revision past every one a client saw and marks the history before it compacted
// (etcdutl snapshot restore --bump-revision N --mark-compacted, as etcd's recovery guide advises
// under Kubernetes): kube-apiserver's new watch cache lists everything at the bumped revision, and
// every informer whose watch tries to resume is answered 410 Gone and lists again. Each component
// then reconciles what it finds: objects deleted after the snapshot are back, and their
// controllers and kubelets act on them as on any object they have just seen.
//
// kubesim restarts kube-apiserver and makes every informer relist; it keeps the other components'
// processes (their queues, expectations and the containers their runtimes run), which Kubernetes'
// guide recommends restarting too so that nothing relies on stale data.
package sim

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kubesim/apiserver"
	"kubesim/store"
)

// eventTTL is kube-apiserver's --event-ttl, one hour, on the cluster's clock. etcd expires leases
// on the wall clock, so a cluster sped up N times gives its Events an Nth of an hour of wall time:
// at speed 60 an Event is gone a minute after its last write, an hour of the cluster's time, as in
// Kubernetes. In step mode the virtual clock has no speed; Events keep an hour of wall time.
func (cfg Config) eventTTL() time.Duration {
	if cfg.Mode != RealTime || cfg.Speed <= 0 {
		return time.Hour
	}
	return time.Duration(float64(time.Hour) / cfg.Speed)
}

// startAPIServer starts kube-apiserver on c.Store, knowing every credential the cluster has issued
// and its webhook backend, and makes it the one every component's link reaches. Each start draws
// names and UIDs from its own seeded source, so a restarted apiserver does not hand out the names
// the first one did.
func (c *Cluster) startAPIServer() error {
	ctx, cancel := context.WithCancel(c.ctx)
	s := apiserver.New(apiserver.Config{Store: c.Store, Clock: c.Clock, Trace: c.Trace,
		Seed: c.Config.Seed + c.seedOffset + int64(c.apiserverStarts), ValidatingAdmission: c.Config.ValidatingAdmission,
		EventTTL: c.Config.eventTTL(), RootCA: c.rootCA})
	c.credMu.Lock()
	for _, cr := range c.creds {
		s.AddCredential(cr)
	}
	c.credMu.Unlock()
	if c.APIServer != nil {
		s.SetWebhookBackend(c.APIServer.WebhookBackend())
	}
	if err := s.Start(ctx); err != nil {
		cancel()
		return err
	}
	c.APIServer, c.stopAPIServer = s, cancel
	c.apiserverStarts++
	c.credMu.Lock()
	for _, l := range c.links {
		l.server.Store(s)
	}
	c.credMu.Unlock()
	if c.Driver != nil {
		c.Driver.server, c.Driver.store = s, c.Store
	}
	return nil
}

// RestoreEtcdSnapshot restores a snapshot (etcdctl snapshot save's file) under the running cluster:
//  1. kube-apiserver stops: every component's requests fail and its watches end;
//  2. etcd stops, and a new etcd starts from the snapshot restored into a new data directory, its
//     revision bumped past every one a client saw and the history before it compacted;
//  3. kube-apiserver starts on it: its watch cache lists the restored data.
//
// It returns the restored etcd's revision. The components' informers relist on their next watch (410
// Gone) and the controllers reconcile. kubesim restores only the one in-process etcd member of a
// temporary cluster.
func (c *Cluster) RestoreEtcdSnapshot(ctx context.Context, file string) (int64, error) {
	if c.Config.DataDir != "" || len(c.Config.EtcdEndpoints) > 0 || c.Config.EtcdMembers > 0 {
		return 0, errors.New("a running cluster restores a snapshot into its one in-process etcd member (no DataDir, EtcdEndpoints or EtcdMembers): use kubesim snapshot restore for the others")
	}
	snapshotRev, err := store.SnapshotRevision(file)
	if err != nil {
		return 0, err
	}
	seen, err := c.Store.CurrentRevision(ctx)
	if err != nil {
		return 0, err
	}

	// 1. Stop kube-apiserver. Its watch cache and timers end, and every connection to it breaks.
	c.stopAPIServer()
	c.credMu.Lock()
	for _, l := range c.links {
		l.breakWatches()
	}
	c.credMu.Unlock()
	c.fault("stop", "kube-apiserver stopped: every component's requests fail and its watches end")

	// 2. Restore etcd into a new data directory, past every revision a client saw.
	if err := c.Store.Close(); err != nil {
		return 0, fmt.Errorf("stop etcd: %w", err)
	}
	bump := seen - snapshotRev + 1
	st, err := store.Open(ctx, store.Config{Clock: c.Clock, Trace: c.Trace, Restore: file, RevisionBump: bump, QuotaBackendBytes: c.Config.EtcdQuotaBackendBytes})
	if err != nil {
		return 0, fmt.Errorf("restore %s: %w", file, err)
	}
	c.Store = st
	c.fault("restore", "etcdutl snapshot restore --bump-revision %d --mark-compacted: a new etcd holding the snapshot's data (revision %d), now at revision %d, past the %d every client has seen; every older revision reads as compacted",
		bump, snapshotRev, snapshotRev+bump, seen)

	// 3. Start kube-apiserver on the restored etcd.
	if err := c.startAPIServer(); err != nil {
		return 0, fmt.Errorf("start kube-apiserver: %w", err)
	}
	c.fault("start", "kube-apiserver started on the restored etcd: its watch cache lists everything at revision %d; a watch from an older resourceVersion is answered 410 Gone, so every informer lists again",
		snapshotRev+bump)
	return snapshotRev + bump, nil
}

// faults_etcd.go: the faults of a multi-member etcd (Config.EtcdMembers), beside faults.go's: Raft
// at work under the control plane. Each fault records what it did (the etcd member lines are the
// store's own, component "etcd") and waits, on the wall clock, for what Raft does about it, since
// etcd's elections run on etcd's own timers, not on the cluster's clock; so in step mode a fault
// takes real time and no cluster time, and the story it tells is the same every run.
//
//	StopEtcdMember / StartEtcdMember   a member's machine dies and comes back: an election if it led,
//	                                   no writes once a quorum is gone, a catch-up when it returns
//	PartitionEtcdMember(name, cut)     a member is cut off from its peers, and reconnected
//	SlowEtcdMember(name, d)            a member's disk turns slow (0 heals)
//	SnapshotEtcd(ctx, file)            etcdctl snapshot save
//
// RestoreEtcdSnapshot, the restore under a running control plane, is in restore.go.
package sim

import (
	"context"
	"errors"
	"time"

	"kubesim/store"
)

// raftWait bounds how long a fault waits for Raft: an election takes a few election timeouts at
// most (300ms to a few seconds in kubesim's cluster), a catch-up less.
const raftWait = 20 * time.Second

// etcdCluster is the store's multi-member cluster, or an error saying the scenario needs one.
func (c *Cluster) etcdCluster() (*store.Cluster, error) {
	if ec := c.Store.Cluster(); ec != nil {
		return ec, nil
	}
	return nil, errors.New("this fault needs a multi-member etcd (Config.EtcdMembers)")
}

// StopEtcdMember stops a member, then waits for what follows: a new leader if a quorum is left (an
// election, if the member led), or, without a quorum, until no member believes it has a leader.
// While a quorum runs, the member stops only once the watch cache has read every committed write:
// otherwise whether the last write's event was still on its way through that member when it
// stopped would decide the story (a write taken before the quorum was lost, unseen after it).
func (c *Cluster) StopEtcdMember(ctx context.Context, name string) error {
	ec, err := c.etcdCluster()
	if err != nil {
		return err
	}
	if quorate(ec) {
		if _, err := c.cacheCaughtUp(ctx); err != nil {
			return err
		}
	}
	if err := ec.Stop(name); err != nil {
		return err
	}
	return c.awaitRaft(ctx, ec)
}

// StartEtcdMember starts a stopped member again and waits until there is a leader (if a quorum
// runs) and the member has caught up with it.
func (c *Cluster) StartEtcdMember(ctx context.Context, name string) error {
	ec, err := c.etcdCluster()
	if err != nil {
		return err
	}
	if err := ec.Start(ctx, name); err != nil {
		return err
	}
	if err := c.awaitRaft(ctx, ec); err != nil {
		return err
	}
	if quorate(ec) {
		ctx, cancel := context.WithTimeout(ctx, raftWait)
		defer cancel()
		return ec.WaitCaughtUp(ctx, name)
	}
	return nil
}

// PartitionEtcdMember cuts a member off from its peers (cut) or mends its links, and waits for
// Raft as StopEtcdMember does.
func (c *Cluster) PartitionEtcdMember(ctx context.Context, name string, cut bool) error {
	ec, err := c.etcdCluster()
	if err != nil {
		return err
	}
	if err := ec.Partition(name, cut); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, raftWait)
	defer cancel()
	_, err = ec.WaitForLeader(ctx)
	return err
}

// SlowEtcdMember makes one member's disk slow: every Raft message to or from it is late by d (0
// heals). A slow follower only falls behind; a slow leader slows every write.
func (c *Cluster) SlowEtcdMember(name string, d time.Duration) error {
	ec, err := c.etcdCluster()
	if err != nil {
		return err
	}
	return ec.Slow(name, d)
}

// SnapshotEtcd saves a snapshot of etcd's whole keyspace to file (etcdctl snapshot save) and returns
// the revision it holds.
func (c *Cluster) SnapshotEtcd(ctx context.Context, file string) (int64, error) {
	rev, err := c.Store.SaveSnapshot(ctx, file)
	if err != nil {
		return 0, err
	}
	c.fault("snapshot", "etcdctl snapshot save: the whole keyspace at revision %d, in one file", rev)
	return rev, nil
}

// awaitRaft waits for a leader when a quorum runs, else for the minority to give its leader up.
func (c *Cluster) awaitRaft(ctx context.Context, ec *store.Cluster) error {
	ctx, cancel := context.WithTimeout(ctx, raftWait)
	defer cancel()
	if quorate(ec) {
		_, err := ec.WaitForLeader(ctx)
		return err
	}
	return ec.WaitLeaderless(ctx)
}

// quorate reports whether a quorum of members runs.
func quorate(ec *store.Cluster) bool {
	n := 0
	for _, st := range ec.Status() {
		if st.Running {
			n++
		}
	}
	return n >= ec.Quorum()
}

// This file is the embedded etcd cluster: 1, 3 or 5 members in one process,
// the ledger as the distributed system it is in a production control plane,
// and the faults that show what Raft does about failures.
//
//	Cluster                          the members and the links between them
//	(*Store).startCluster            start a cluster and connect to all of it
//	(*Cluster).Stop, Start           a member's process dies and comes back
//	(*Cluster).Partition             a member is cut off from its peers, and reconnected
//	(*Cluster).Slow                  a member's disk turns slow
//	(*Cluster).Status, Quorum        every member's view of Raft, and the majority needed
//	(*Cluster).WaitForLeader         wait for an election and tell the trace its outcome
//	(*Cluster).WaitLeaderless        wait until the members without a quorum give up their leader
//	(*Cluster).WaitCaughtUp          wait for a member that was away to catch up
//
// Raft in one paragraph: the members elect a leader for a term; every write
// goes to the leader, which appends it to its log and sends it to the
// followers; it is committed (and the client answered) once a majority, the
// quorum, has it on disk. With 3 members the quorum is 2, so one member may
// fail; with 5 it is 3, so two may. A leader that cannot hear from a quorum
// steps down (etcd's CheckQuorum), and no member can win an election
// without a quorum's votes, so a minority never writes: writes wait, and
// fail after etcd's request timeout with "etcdserver: request timed out".
// A member that comes back, or whose links mend, receives the entries it
// missed from the leader.

package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/types"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"kubesim/trace"
)

// pollEvery is how often the Wait methods look at the members again.
const pollEvery = 5 * time.Millisecond

// Cluster is a running embedded etcd cluster. Its methods are safe for
// concurrent use.
type Cluster struct {
	members        []*Member
	initialCluster string
	lg             *zap.Logger
	trace          *trace.Recorder // nil: untraced
	links          linkState
	client         *clientv3.Client // the store's, told which members run

	// mu guards told, the leader and term the trace was last told, so each
	// election is told once; handoverTo, the member a leader is handing
	// over to; and freeElection, set while every member may campaign
	// (election.go).
	mu           sync.Mutex
	told         MemberStatus
	handoverTo   *Member
	freeElection bool
}

// startCluster starts n members with their data under dataDir (a fresh
// temporary directory if empty) and connects s to all of them, as
// kube-apiserver connects to every --etcd-servers URL.
func (s *Store) startCluster(ctx context.Context, n int, dataDir string, tr *trace.Recorder, lg *zap.Logger) error {
	if n != 1 && n != 3 && n != 5 {
		return fmt.Errorf("an etcd cluster of %d members: kubesim runs 1, 3 or 5", n)
	}
	fsync := dataDir != ""
	dataDir, sockets, err := s.prepareDataDir(dataDir, false)
	if err != nil {
		return err
	}
	c := &Cluster{lg: lg, trace: tr, links: linkState{
		cut: map[*Member]bool{}, slow: map[*Member]time.Duration{}, crossing: map[*crossing]bool{},
	}}
	s.cluster = c
	var peers []string
	for i := range n {
		dir, client, peer := memberDirs(dataDir, sockets, i)
		m := &Member{Name: fmt.Sprintf("etcd-%d", i), dir: dir, clientSocket: client, peerSocket: peer, fsync: fsync}
		if m.link, err = newPeerLink(c, m); err != nil {
			return err
		}
		c.members = append(c.members, m)
		u := m.link.URL()
		peers = append(peers, m.Name+"="+u.String())
	}
	c.initialCluster = strings.Join(peers, ",")
	var urls []string
	for _, m := range c.members {
		if err := m.start(c.initialCluster, "new", lg); err != nil {
			return err
		}
		urls = append(urls, m.ClientURL())
	}
	for _, m := range c.members {
		if err := m.ready(ctx); err != nil {
			return err
		}
	}
	if _, err := c.WaitForLeader(ctx); err != nil {
		return err
	}
	s.client, err = clientv3.New(clientv3.Config{Endpoints: urls, DialTimeout: dialTimeout, Logger: lg})
	if err != nil {
		return fmt.Errorf("connect to the etcd cluster: %w", err)
	}
	s.clientURLs = urls
	c.client = s.client
	return nil
}

// syncEndpoints points the store's client at the running members, but
// stopping.
// kubesim's client so forgets a stopped member at once, where
// kube-apiserver's finds out when a request to it fails: the story of a
// stopped member is the same every run.
func (c *Cluster) syncEndpoints(stopping *Member) {
	if c.client == nil {
		return
	}
	var urls []string
	for _, m := range c.members {
		if m.Running() && m != stopping {
			urls = append(urls, m.ClientURL())
		}
	}
	if len(urls) > 0 {
		c.client.SetEndpoints(urls...)
	}
}

// Members returns the members, etcd-0 first.
func (c *Cluster) Members() []*Member { return c.members }

// Quorum is the number of members a write needs: a majority.
func (c *Cluster) Quorum() int { return len(c.members)/2 + 1 }

// member finds a member by name.
func (c *Cluster) member(name string) (*Member, error) {
	for _, m := range c.members {
		if m.Name == name {
			return m, nil
		}
	}
	return nil, fmt.Errorf("no etcd member %q", name)
}

// memberByID finds the member with the given hexadecimal member ID, as
// rafthttp writes it in its headers; nil if none has it.
func (c *Cluster) memberByID(hex string) *Member {
	if hex == "" {
		return nil
	}
	id, err := types.IDFromString(hex)
	if err != nil {
		return nil
	}
	for _, m := range c.members {
		m.mu.Lock()
		mid := m.id
		m.mu.Unlock()
		if mid == id {
			return m
		}
	}
	return nil
}

// name turns a member ID into its name.
func (c *Cluster) name(id types.ID) string {
	if m := c.memberByID(id.String()); m != nil {
		return m.Name
	}
	return id.String()
}

// running counts the members whose server is up.
func (c *Cluster) running() int {
	n := 0
	for _, m := range c.members {
		if m.Running() {
			n++
		}
	}
	return n
}

// Stop stops a member's server, as if its machine died: no goodbye, no
// handing over of a leadership. Its data stays.
func (c *Cluster) Stop(name string) error {
	m, err := c.member(name)
	if err != nil {
		return err
	}
	c.syncEndpoints(m)
	if err := m.kill(); err != nil {
		return err
	}
	c.record("stop", name, "member %s stopped: %d of %d members run, a quorum is %d", name, c.running(), len(c.members), c.Quorum())
	return nil
}

// Start starts a stopped member again from its data directory. It rejoins
// the cluster and the leader sends it what it missed; WaitCaughtUp waits
// for that.
func (c *Cluster) Start(ctx context.Context, name string) error {
	m, err := c.member(name)
	if err != nil {
		return err
	}
	if err := m.start(c.initialCluster, "existing", c.lg); err != nil {
		return err
	}
	c.syncEndpoints(nil)
	c.record("start", name, "member %s started again: %d of %d members run, a quorum is %d", name, c.running(), len(c.members), c.Quorum())
	return nil
}

// Partition cuts a member off from every other member (cut is true) or
// mends its links (cut is false). Clients still reach it: a partitioned
// member answers, but without a quorum it cannot commit.
func (c *Cluster) Partition(name string, cut bool) error {
	m, err := c.member(name)
	if err != nil {
		return err
	}
	c.cutLinks(m, cut)
	if cut {
		c.record("partition", name, "member %s is cut off from its peers", name)
	} else {
		c.record("mend", name, "member %s reaches its peers again", name)
	}
	return nil
}

// Slow makes every Raft message to or from a member late by d, which is
// what a slow disk looks like to the others: a follower acknowledges an
// append only after its fsync, and a leader sends only what it has synced.
// Zero heals it. (kubesim delays the member's messages rather than its
// fsyncs: etcd has no hook for its disk.)
func (c *Cluster) Slow(name string, d time.Duration) error {
	m, err := c.member(name)
	if err != nil {
		return err
	}
	c.links.mu.Lock()
	c.links.slow[m] = d
	c.links.mu.Unlock()
	if d == 0 {
		c.record("heal", name, "member %s's disk is fast again", name)
	} else {
		c.record("slow", name, "member %s's disk is slow: each fsync takes %s, and so does each of its Raft messages", name, d)
	}
	return nil
}

// Status returns every member's view of Raft, etcd-0 first.
func (c *Cluster) Status() []MemberStatus {
	st := make([]MemberStatus, len(c.members))
	for i, m := range c.members {
		st[i] = m.status(c.name)
	}
	return st
}

// leader returns the member a quorum of running members follows, if any.
// Members cut off from their peers do not count, nor can they lead: a
// leader that has just been cut off is still followed until its followers'
// election timeouts run out.
func (c *Cluster) leader() (MemberStatus, bool) {
	votes := map[string]int{}
	byName := map[string]MemberStatus{}
	c.links.mu.Lock()
	cut := map[string]bool{}
	for m, isCut := range c.links.cut {
		cut[m.Name] = isCut
	}
	c.links.mu.Unlock()
	for _, st := range c.Status() {
		byName[st.Name] = st
		if st.Running && st.Leader != "" && !cut[st.Name] && !cut[st.Leader] {
			votes[st.Leader]++
		}
	}
	for name, n := range votes {
		if l := byName[name]; n >= c.Quorum() && l.Running && l.Leader == name {
			return l, true
		}
	}
	return MemberStatus{}, false
}

// WaitForLeader waits until a quorum of members follows one leader, the
// lowest-numbered member that can lead, and tells the trace when the leader
// or the term changed since it last told. It fails when ctx ends first, as
// it will without a quorum.
//
// The designated member wins each election (election.go); a leader that is
// not the lowest-numbered member that runs and reaches its peers (after a
// lower one came back) hands its leadership over, as `etcdctl move-leader`
// would, which is one more election, before the trace is told.
func (c *Cluster) WaitForLeader(ctx context.Context) (MemberStatus, error) {
	began := time.Now()
	defer c.setFreeElection(false)
	for {
		if time.Since(began) > freeElectionAfter {
			c.setFreeElection(true) // the designated member cannot win: let Raft decide
		}
		if l, ok := c.leader(); ok {
			first := c.firstCandidate(nil)
			if first == nil || first.Name == l.Name {
				if l, ok := c.settle(ctx, l.Name); ok {
					c.tell(l)
					return l, nil
				}
				continue
			}
			if err := c.handOver(ctx, l.Name, first); err != nil {
				return MemberStatus{}, err
			}
		}
		if err := sleepCtx(ctx, pollEvery); err != nil {
			return MemberStatus{}, fmt.Errorf("no etcd leader: %d of %d members run, a quorum is %d: %w",
				c.running(), len(c.members), c.Quorum(), err)
		}
	}
}

// settle waits until the leader has applied an entry of its own term and
// returns its status then, or false if it no longer leads. etcd's Term is the
// term of the last entry a member applied, so a leader elected a moment ago
// still shows the term before; a linearizable read, which Raft serves only
// once the leader has committed an entry of its term, waits that moment out.
func (c *Cluster) settle(ctx context.Context, leader string) (MemberStatus, bool) {
	m, err := c.member(leader)
	if err != nil {
		return MemberStatus{}, false
	}
	m.mu.Lock()
	e := m.etcd
	m.mu.Unlock()
	if e == nil {
		return MemberStatus{}, false
	}
	rctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := e.Server.LinearizableReadNotify(rctx); err != nil {
		return MemberStatus{}, false
	}
	st := m.status(c.name)
	return st, st.Leader == leader
}

// tell records a leader the trace has not been told yet.
func (c *Cluster) tell(l MemberStatus) {
	c.mu.Lock()
	before := c.told
	c.told = l
	c.mu.Unlock()
	switch {
	case before.Name == "":
		c.record("leader", l.Name, "%s became leader at term %d", l.Name, l.Term)
	case before.Term != l.Term:
		c.record("election", l.Name, "election: %s became leader at term %d (%s led term %d)", l.Name, l.Term, before.Name, before.Term)
	}
}

// firstCandidate is the lowest-numbered member but except that runs and
// reaches its peers.
func (c *Cluster) firstCandidate(except *Member) *Member {
	c.links.mu.Lock()
	defer c.links.mu.Unlock()
	for _, m := range c.members {
		if m != except && m.Running() && !c.links.cut[m] {
			return m
		}
	}
	return nil
}

// handOver asks the leader to transfer its leadership to m.
func (c *Cluster) handOver(ctx context.Context, leader string, to *Member) error {
	from, err := c.member(leader)
	if err != nil {
		return err
	}
	from.mu.Lock()
	e, lead := from.etcd, uint64(from.id)
	from.mu.Unlock()
	to.mu.Lock()
	target := uint64(to.id)
	to.mu.Unlock()
	if e == nil {
		return nil // it stopped meanwhile: the next look finds the next leader
	}
	c.mu.Lock()
	c.handoverTo = to
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.handoverTo = nil
		c.mu.Unlock()
	}()
	if err := e.Server.MoveLeader(ctx, lead, target); err != nil && ctx.Err() != nil {
		return fmt.Errorf("hand the leadership to %s: %w", to.Name, err)
	}
	return nil
}

// setFreeElection lets every member campaign (free) or only the designated
// one.
func (c *Cluster) setFreeElection(free bool) {
	c.mu.Lock()
	c.freeElection = free
	c.mu.Unlock()
}

// WaitLeaderless waits until no running member follows a leader any more,
// which is how the members of a minority end up once their leader has not
// heard from a quorum for an election timeout, and tells the trace.
func (c *Cluster) WaitLeaderless(ctx context.Context) error {
	for {
		led := false
		for _, st := range c.Status() {
			led = led || (st.Running && st.Leader != "")
		}
		if !led {
			c.record("no-leader", "", "no leader: %d of %d members run and a quorum is %d, so no one can win an election; writes wait",
				c.running(), len(c.members), c.Quorum())
			return nil
		}
		if err := sleepCtx(ctx, pollEvery); err != nil {
			return fmt.Errorf("the etcd members kept a leader: %w", err)
		}
	}
}

// WaitCaughtUp waits until a member that was away (stopped or cut off) has
// applied every entry the leader had when the wait began, telling the trace
// that it was behind and when it has caught up.
func (c *Cluster) WaitCaughtUp(ctx context.Context, name string) error {
	m, err := c.member(name)
	if err != nil {
		return err
	}
	l, err := c.WaitForLeader(ctx)
	if err != nil {
		return err
	}
	// A member that was away is behind: at least the new term's first
	// entry was committed without it.
	c.record("behind", name, "member %s is behind the leader %s: the leader sends it the entries it missed", name, l.Name)
	c.recordIndexes()
	for m.status(c.name).Applied < l.Applied {
		if err := sleepCtx(ctx, pollEvery); err != nil {
			return fmt.Errorf("%s did not catch up: %w", name, err)
		}
	}
	c.record("caught-up", name, "member %s has caught up with the leader", name)
	c.recordIndexes()
	return nil
}

// recordIndexes tells the trace, as a detail (`--verbose`), every member's
// Raft state: its term, whom it follows and the last log index it applied,
// as `etcdctl endpoint status` prints them. The indexes count etcd's own
// entries too (one per new term, one per member start), whose timing varies
// from run to run, so the story's own lines do not show them.
func (c *Cluster) recordIndexes() {
	if c.trace == nil {
		return
	}
	var parts []string
	for _, st := range c.Status() {
		switch {
		case !st.Running:
			parts = append(parts, st.Name+" stopped")
		case st.Leader == st.Name:
			parts = append(parts, fmt.Sprintf("%s leader, term %d, applied index %d", st.Name, st.Term, st.Applied))
		default:
			parts = append(parts, fmt.Sprintf("%s follower, term %d, applied index %d", st.Name, st.Term, st.Applied))
		}
	}
	c.trace.Record(trace.Event{Component: "etcd", Action: "status", Detail: true}.Msgf("raft: %s", strings.Join(parts, "; ")))
}

// close stops every member and link.
func (c *Cluster) close() error {
	var errs []error
	for _, m := range c.members {
		errs = append(errs, m.kill())
		if m.link != nil {
			m.link.close()
		}
	}
	return errors.Join(errs...)
}

// record tells the trace what happened to the cluster.
func (c *Cluster) record(action, member, format string, args ...any) {
	if c.trace == nil {
		return
	}
	e := trace.Event{Component: "etcd", Action: action}
	if member != "" {
		e.Object = "members/" + member
	}
	c.trace.Record(e.Msgf(format, args...))
}

// sleepCtx waits d of wall time: Raft's timers are etcd's own and run on
// the wall clock whatever clock the cluster reads.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// This file is one member of an embedded etcd cluster: a whole etcd server
// with its own data directory, its own sockets and its own peer link, which
// can be stopped and started again like the `etcd` process on one
// control-plane machine.
//
//	Member                     one etcd member
//	(*Member).Running          whether its server is up
//	(*Member).start, kill      the process starting and dying
//	(*Member).status           its view of Raft: leader, term, indexes
//
// Members are named etcd-0, etcd-1, ... as kubeadm names them after their
// machines.

package store

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/types"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// tickMs is etcd's heartbeat interval in the embedded cluster and
// electionMs its election timeout (etcd's defaults are 100ms and 1s). The
// timeout leaves a loaded machine time to deliver a candidate's votes and a
// leader's heartbeats: one that runs out anyway costs a term, and the story
// names the terms. 300 ms was too short at a load average of 20, and 600 ms
// too short for CI's race-detector run (two runs of 2026-12-02 told an extra
// term in etcd-quorum and etcd-leader-loss); etcd's own 1 s makes every
// election the tests cause (dozens) wait a second or two, which CI can spare.
const (
	tickMs     = 10
	electionMs = 1000
)

// Member is one etcd member of a Cluster.
type Member struct {
	Name string

	dir          string // data directory
	clientSocket string // where clients (the store, etcdctl) connect
	peerSocket   string // where the member listens for its peers
	link         *peerLink
	fsync        bool

	// mu guards etcd and id; etcd is nil while the member is stopped.
	mu   sync.Mutex
	etcd *embed.Etcd
	id   types.ID
}

// ClientURL is where etcdctl can reach this member.
func (m *Member) ClientURL() string { return "unix://" + m.clientSocket }

// Running reports whether the member's server is up.
func (m *Member) Running() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.etcd != nil
}

// config is the member's etcd configuration: as `etcd --name etcd-0
// --data-dir ... --initial-cluster ...` would be given.
func (m *Member) config(initialCluster, state string, lg *zap.Logger) *embed.Config {
	cfg := embed.NewConfig()
	cfg.Name = m.Name
	cfg.Dir = m.dir
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(lg.With(zap.String("member", m.Name)))
	client := url.URL{Scheme: "unix", Host: m.clientSocket}
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{{Scheme: "unix", Host: m.peerSocket}}
	cfg.AdvertisePeerUrls = []url.URL{m.link.URL()}
	cfg.InitialCluster = initialCluster
	cfg.InitialClusterToken = "kubesim"
	cfg.ClusterState = state
	cfg.TickMs = tickMs
	cfg.ElectionMs = electionMs
	// A member that can lose its disk contents must not claim them durable;
	// a temporary cluster has nothing to keep (doc.go, "fsync").
	cfg.UnsafeNoFsync = !m.fsync
	cfg.EnableGRPCGateway = false
	return cfg
}

// start starts the member's server and returns without waiting for it to
// join: the members of a new cluster can only elect a leader together.
func (m *Member) start(initialCluster, state string, lg *zap.Logger) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.etcd != nil {
		return fmt.Errorf("%s is already running", m.Name)
	}
	e, err := embed.StartEtcd(m.config(initialCluster, state, lg))
	if err != nil {
		return fmt.Errorf("start %s in %s: %w", m.Name, m.dir, err)
	}
	m.etcd, m.id = e, e.Server.MemberID()
	return nil
}

// ready waits until the member serves requests.
func (m *Member) ready(ctx context.Context) error {
	m.mu.Lock()
	e := m.etcd
	m.mu.Unlock()
	if e == nil {
		return fmt.Errorf("%s is stopped", m.Name)
	}
	select {
	case <-e.Server.ReadyNotify():
		return nil
	case err := <-e.Err():
		return fmt.Errorf("%s failed: %w", m.Name, err)
	case <-ctx.Done():
		return fmt.Errorf("%s did not become ready: %w", m.Name, ctx.Err())
	}
}

// kill stops the member's server without a word to its peers, as if its
// machine died; its data directory stays. Killing a stopped member does
// nothing. A leader killed this way hands nothing over: its followers
// notice the missing heartbeats and elect a successor (election.go decides
// which). etcd's own Close would hand the leadership over first, to the
// follower it has heard from longest, and when the whole cluster goes away
// it would only wait, up to etcd's request timeout, for a peer that is
// stopping too.
func (m *Member) kill() error {
	m.mu.Lock()
	e := m.etcd
	m.etcd = nil
	m.mu.Unlock()
	if e == nil {
		return nil
	}
	stopped := make(chan error, 1)
	go func() {
		// HardStop ends the server's loop, which cancels its context: the Close that follows finds
		// it cancelled and tries no hand-over.
		e.Server.HardStop()
		e.Close()
		var errs []error
		for err := range e.Err() {
			// A member killed before it served its first client (restarted moments before, still
			// publishing itself to the cluster) reports that its server was stopping: what a kill does.
			if err.Error() != "server is stopping" {
				errs = append(errs, err)
			}
		}
		if len(errs) > 0 {
			stopped <- fmt.Errorf("%s stopped with %v", m.Name, errs)
			return
		}
		stopped <- nil
	}()
	// embed.Etcd.Close can wait forever for a client server that never finished starting (seen
	// under the race detector, for a member restarted moments before): a killed process does not
	// wait, so neither does this; the stuck goroutine is left behind.
	select {
	case err := <-stopped:
		return err
	case <-time.After(memberStopTimeout):
		return fmt.Errorf("%s did not stop within %s", m.Name, memberStopTimeout)
	}
}

// memberStopTimeout bounds how long kill waits for etcd's own Close.
const memberStopTimeout = 15 * time.Second

// MemberStatus is one member's view of Raft.
type MemberStatus struct {
	Name    string
	Running bool
	// Leader is the member this one follows (itself if it leads); "" when
	// it knows no leader, as in an election or without a quorum.
	Leader string
	Term   uint64
	// Applied is the last log index this member has applied to its data;
	// a member behind the leader has a smaller one.
	Applied uint64
}

// status reads the member's Raft state; names maps member IDs to names.
func (m *Member) status(names func(types.ID) string) MemberStatus {
	m.mu.Lock()
	e := m.etcd
	m.mu.Unlock()
	st := MemberStatus{Name: m.Name, Running: e != nil}
	if e == nil {
		return st
	}
	if lead := e.Server.Leader(); lead != 0 {
		st.Leader = names(lead)
	}
	st.Term, st.Applied = e.Server.Term(), e.Server.AppliedIndex()
	return st
}

// memberDirs lays out n members under base: base/etcd-i for data, and the
// sockets in sockets.
func memberDirs(base, sockets string, i int) (dir, client, peer string) {
	name := fmt.Sprintf("etcd-%d", i)
	return filepath.Join(base, name),
		filepath.Join(sockets, name+":2379"),
		filepath.Join(sockets, name+":2380")
}

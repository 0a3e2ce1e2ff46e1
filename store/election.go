// This file makes the embedded cluster's elections come out the same every
// run, so that a story can name the term each leader won.
//
//	(*Cluster).designated    the one member whose vote requests reach the others
//	muted                    whether a Raft message is a vote request to drop
//	voteFilter               a peer stream with the muted messages taken out
//	(*Cluster).admitVote     the same for a message posted on its own (rafthttp's pipeline)
//
// Raft's elections are races: a member that hears no leader waits a random
// part of its election timeout, then asks the others for their votes (a
// pre-vote first, then the vote of a new term), and the first to ask usually
// wins. Which member that is, and how many terms split votes burn first, vary
// from run to run. kubesim decides the race instead: the peer links carry
// vote requests only from one designated member, the lowest-numbered one
// that runs and reaches its peers (or the one a leader is handing over to).
// The others' requests are lost on the way, as on a lossy network, and with
// pre-vote (etcd's default) a candidate nobody answers stays at its term. So
// every election is won, at the next term, by the member kubesim names.
// When the designated member cannot win (its log is behind the others'),
// WaitForLeader lets every request through after freeElectionAfter and Raft
// decides as it always does.

package store

import (
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/types"
	"go.etcd.io/raft/v3/raftpb"
)

// freeElectionAfter is how long WaitForLeader waits for the designated
// member before it lets every member campaign.
const freeElectionAfter = 3 * time.Second

// designated is the member whose vote requests may cross: the handover's
// target during a handover, else the lowest-numbered member that runs and
// reaches its peers; 0 when every member may campaign.
func (c *Cluster) designated() types.ID {
	c.mu.Lock()
	to, free := c.handoverTo, c.freeElection
	c.mu.Unlock()
	if free {
		return 0
	}
	if to == nil {
		to = c.firstCandidate(nil)
	}
	if to == nil {
		return 0
	}
	to.mu.Lock()
	defer to.mu.Unlock()
	return to.id
}

// muted reports whether m asks for a vote on behalf of a member that is not
// the designated one.
func (c *Cluster) muted(m *raftpb.Message) bool {
	if m.Type != raftpb.MsgPreVote && m.Type != raftpb.MsgVote {
		return false
	}
	d := c.designated()
	return d != 0 && types.ID(m.From) != d
}

// isMessageStream reports whether a peer request opens rafthttp's message
// stream, the one that carries every Raft message but the log appends (those
// travel on the msgapp stream and are never vote requests).
func isMessageStream(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/raft/stream/message/")
}

// isPipeline reports whether a peer request posts one Raft message, as
// rafthttp does while its streams are not yet up.
func isPipeline(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/raft"
}

// admitVote reads a pipeline request's message and reports whether it may
// be forwarded, putting its body back for the proxy.
func (c *Cluster) admitVote(r *http.Request) bool {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m raftpb.Message
	if err != nil || m.Unmarshal(body) != nil {
		return true // not a message this filter understands: etcd will judge it
	}
	return !c.muted(&m)
}

// voteFilter passes a message stream on, frame by frame (an 8-byte
// big-endian length, then the message), leaving out the muted vote requests.
type voteFilter struct {
	c    *Cluster
	body io.ReadCloser
	out  bytes.Buffer // frames read and kept, not yet returned
}

func (f *voteFilter) Read(p []byte) (int, error) {
	for f.out.Len() == 0 {
		var size uint64
		if err := binary.Read(f.body, binary.BigEndian, &size); err != nil {
			return 0, err
		}
		frame := make([]byte, size)
		if _, err := io.ReadFull(f.body, frame); err != nil {
			return 0, err
		}
		var m raftpb.Message
		if m.Unmarshal(frame) == nil && f.c.muted(&m) {
			continue
		}
		binary.Write(&f.out, binary.BigEndian, size)
		f.out.Write(frame)
	}
	return f.out.Read(p)
}

func (f *voteFilter) Close() error { return f.body.Close() }

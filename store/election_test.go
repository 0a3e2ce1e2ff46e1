// Tests of the vote filter on the peer links: only the designated member's vote requests cross, and
// every other message passes through whole and in order.

package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/client/pkg/v3/types"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/raft/v3/raftpb"
)

// frames encodes messages as rafthttp's message stream carries them: an 8-byte big-endian length,
// then the message.
func frames(t *testing.T, msgs ...raftpb.Message) []byte {
	var b bytes.Buffer
	for _, m := range msgs {
		data, err := m.Marshal()
		require.NoError(t, err)
		require.NoError(t, binary.Write(&b, binary.BigEndian, uint64(len(data))))
		b.Write(data)
	}
	return b.Bytes()
}

func TestOnlyTheDesignatedMembersVoteRequestsCross(t *testing.T) {
	// etcd-0 is stopped, so etcd-1, the lowest-numbered member that runs, is the designated one.
	c := &Cluster{links: linkState{cut: map[*Member]bool{}}}
	for i, id := range []types.ID{0x10, 0x11, 0x12} {
		m := &Member{Name: fmt.Sprintf("etcd-%d", i), id: id}
		if i > 0 {
			m.etcd = new(embed.Etcd) // runs
		}
		c.members = append(c.members, m)
	}

	heartbeat := raftpb.Message{Type: raftpb.MsgHeartbeat, From: 0x11, To: 0x12, Term: 3}
	fromDesignated := raftpb.Message{Type: raftpb.MsgPreVote, From: 0x11, To: 0x12, Term: 4}
	fromOther := raftpb.Message{Type: raftpb.MsgVote, From: 0x12, To: 0x11, Term: 4}
	f := &voteFilter{c: c, body: io.NopCloser(bytes.NewReader(frames(t, heartbeat, fromOther, fromDesignated, fromOther)))}
	got, err := io.ReadAll(f)
	require.NoError(t, err)
	require.Equal(t, frames(t, heartbeat, fromDesignated), got)

	c.setFreeElection(true)
	f = &voteFilter{c: c, body: io.NopCloser(bytes.NewReader(frames(t, fromOther)))}
	got, _ = io.ReadAll(f)
	require.Equal(t, frames(t, fromOther), got, "a free election lets every member campaign")
}

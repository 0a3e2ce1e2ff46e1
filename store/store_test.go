// Tests of the store's lifecycle and faults: data directories, external
// endpoints, logging, write latency and counters.

package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/internal/testenv/syncbuf"
	"kubesim/store"
)

// socketPath is the filesystem path of the store's client socket.
func socketPath(t *testing.T, s *store.Store) string {
	t.Helper()
	urls := s.ClientURLs()
	require.Len(t, urls, 1)
	path, ok := strings.CutPrefix(urls[0], "unix://")
	require.True(t, ok, "embedded etcd listens on a unix socket, got %s", urls[0])
	return path
}

func TestDataDirSurvivesCloseAndReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()

	s, err := store.Open(ctx, store.Config{DataDir: dir})
	require.NoError(t, err)
	rev, err := s.Create(ctx, "/registry/namespaces/default", []byte(`{"phase":"Active"}`))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.DirExists(t, dir, "Close keeps a caller's data directory")

	s, err = store.Open(ctx, store.Config{DataDir: dir})
	require.NoError(t, err)
	defer s.Close()
	kv, err := s.Get(ctx, "/registry/namespaces/default")
	require.NoError(t, err)
	assert.Equal(t, `{"phase":"Active"}`, string(kv.Value))
	assert.Equal(t, rev, kv.ModRevision)
	current, err := s.CurrentRevision(ctx)
	require.NoError(t, err)
	assert.Equal(t, rev, current, "the revision counter survives too")
}

func TestCloseRemovesTemporaryDataDir(t *testing.T) {
	t.Parallel()
	s, err := store.Open(context.Background(), store.Config{})
	require.NoError(t, err)
	dir := filepath.Dir(socketPath(t, s))
	assert.DirExists(t, filepath.Join(dir, "member"), "the sockets sit beside etcd's data")

	require.NoError(t, s.Close())
	assert.NoDirExists(t, dir)
	assert.NoError(t, s.Close(), "Close twice is harmless")
}

func TestLongDataDirPutsSocketsInShortTemporaryDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), strings.Repeat("a-long-directory-name-", 6))
	s, err := store.Open(context.Background(), store.Config{DataDir: dir})
	require.NoError(t, err)
	sockets := filepath.Dir(socketPath(t, s))
	assert.NotEqual(t, dir, sockets)
	assert.DirExists(t, filepath.Join(dir, "member"))

	require.NoError(t, s.Close())
	assert.NoDirExists(t, sockets)
	assert.DirExists(t, dir)
}

// A second store reaches the first through its client socket, exactly as
// kubesim would reach an etcd it did not start.
func TestExternalEndpointsReachAnotherMember(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server := openStore(t, store.Config{})
	remote := openStore(t, store.Config{Endpoints: server.ClientURLs()})
	assert.Equal(t, server.ClientURLs(), remote.ClientURLs())

	w := server.Watch(ctx, "/registry/", 0)
	defer w.Stop()
	rev, err := remote.Create(ctx, "/registry/pods/default/remote", []byte("over the socket"))
	require.NoError(t, err)

	kv, err := server.Get(ctx, "/registry/pods/default/remote")
	require.NoError(t, err)
	assert.Equal(t, "over the socket", string(kv.Value))
	assert.Equal(t, rev, nextEvents(t, w, 1)[0].Revision)
}

func TestUnreachableEndpointsFailOpen(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	missing := "unix://" + filepath.Join(t.TempDir(), "etcd:2379")

	_, err := store.Open(ctx, store.Config{Endpoints: []string{missing}})
	assert.ErrorContains(t, err, "does not answer")
}

func TestLoggerReceivesEtcdLogs(t *testing.T) {
	t.Parallel()
	var buf syncbuf.Buffer
	openStore(t, store.Config{Logger: &buf})

	assert.Contains(t, buf.String(), `"msg":"starting an etcd server"`)
}

// sleeperFunc lets a test see, and act at, every write delay.
type sleeperFunc func(time.Duration)

func (f sleeperFunc) Sleep(d time.Duration) { f(d) }

func TestWriteLatencyWaitsOnTheClockBeforeEachWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const key = "/registry/pods/default/slow"
	var (
		s     *store.Store
		slept []time.Duration
		seen  []string // the key's value while each write waited
	)
	s = openStore(t, store.Config{Clock: sleeperFunc(func(d time.Duration) {
		slept = append(slept, d)
		kv, err := s.Get(ctx, key)
		if store.IsNotFound(err) {
			seen = append(seen, "<none>")
			return
		}
		require.NoError(t, err)
		seen = append(seen, string(kv.Value))
	})})

	s.SetWriteLatency(250 * time.Millisecond)
	rev, err := s.Create(ctx, key, []byte("v1"))
	require.NoError(t, err)
	_, err = s.Update(ctx, key, []byte("v2"), rev)
	require.NoError(t, err)
	_, _, err = s.List(ctx, "/registry/", 0)
	require.NoError(t, err)
	_, _, err = s.Delete(ctx, key, 0)
	require.NoError(t, err)

	assert.Equal(t, []time.Duration{250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond}, slept,
		"each write waits once; reads do not wait")
	assert.Equal(t, []string{"<none>", "v1", "v2"}, seen, "the wait comes before the write reaches etcd")

	s.SetWriteLatency(0)
	_, err = s.Create(ctx, key, []byte("fast"))
	require.NoError(t, err)
	assert.Len(t, slept, 3, "zero latency means no wait at all")
}

func TestStatsCountRequests(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()

	rev, err := s.Create(ctx, "/k", []byte("1"))
	require.NoError(t, err)
	_, err = s.Update(ctx, "/k", []byte("22"), rev)
	require.NoError(t, err)
	_, err = s.Create(ctx, "/k", []byte("333"))
	require.Error(t, err, "a failed write is still a write")
	_, err = s.Get(ctx, "/k")
	require.NoError(t, err)
	_, _, err = s.List(ctx, "/", 0)
	require.NoError(t, err)
	s.Watch(ctx, "/", 0).Stop()

	assert.Equal(t, store.Stats{Writes: 3, WrittenBytes: 1 + 2 + 3, Reads: 1, Lists: 1, Watches: 1}, s.Stats())
}

// A database that reaches its quota makes etcd raise NOSPACE and refuse writes with "database space
// exceeded", as a real etcd does (2 GiB by default: the full envelope reached it); reads go on.
func TestQuotaExceededRaisesNoSpaceAndRefusesWrites(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{QuotaBackendBytes: 4 << 20})
	ctx := context.Background()
	sp, ok := s.Space()
	require.True(t, ok)
	assert.Equal(t, int64(4<<20), sp.Quota)
	assert.Less(t, sp.Size, sp.Quota)
	assert.Empty(t, sp.Alarms)

	value := make([]byte, 256<<10)
	var err error
	for i := 0; i < 64 && err == nil; i++ {
		if i > 0 && i%16 == 0 {
			// etcd measures its database after the backend commits a batch (every 100 ms): writes
			// faster than that all pass before the size shows.
			time.Sleep(150 * time.Millisecond)
		}
		_, err = s.Create(ctx, fmt.Sprintf("/registry/configmaps/default/big-%d", i), value)
	}
	require.Error(t, err, "64 values of 256 KiB do not fit in 4 MiB")
	msg, ok := store.NoSpace(err)
	assert.True(t, ok, "%v", err)
	assert.Equal(t, "etcdserver: mvcc: database space exceeded", msg)
	sp, _ = s.Space()
	assert.Equal(t, []string{"NOSPACE"}, sp.Alarms)
	_, err = s.Get(ctx, "/registry/configmaps/default/big-0")
	assert.NoError(t, err, "reads go on")
}

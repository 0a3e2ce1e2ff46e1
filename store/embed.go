// This file starts the embedded etcd member: one etcd server running inside
// the kubesim process, as `etcd --data-dir ...` would run beside a real
// kube-apiserver.
//
//	(*Store).startEmbedded   configure, start and wait for the member
//	prepareDataDir           the member's data directory, temporary or not
//	socketDir                where the member's unix sockets go
//
// Two choices make many members per machine possible. The member listens on
// unix sockets inside a directory it owns, never on TCP ports, so parallel
// tests and processes cannot collide. And the store talks to it through
// v3client, etcd's in-process client, which calls the gRPC handlers directly:
// requests never touch a socket, only etcdctl does.

package store

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"
	"go.uber.org/zap"
)

// Socket file names. Each is named after the TCP port etcd uses by default
// for the same listener, and etcd insists on a "host:port" shape for the
// URLs it advertises.
const (
	clientSocket = "etcd:2379"
	peerSocket   = "etcd:2380"
)

// maxSocketPath stays under the smallest limit on a unix socket path (104
// bytes on macOS, 108 on Linux).
const maxSocketPath = 100

// singleMemberCatchUpEntries is the raft entries a single member keeps behind its snapshot.
const singleMemberCatchUpEntries = 100

// startEmbedded starts a single-member etcd in dataDir (a fresh temporary
// directory if empty, after sweeping the ones killed processes left), first
// restoring the snapshot file restore into it if one is given, and connects
// s to it in-process.
func (s *Store) startEmbedded(ctx context.Context, dataDir, restore string, bump int64, lg *zap.Logger) error {
	temporary := dataDir == ""
	dataDir, sockets, err := s.prepareDataDir(dataDir, restore != "")
	if err != nil {
		return err
	}
	if restore != "" {
		// etcdutl writes the member's directories; the sockets come later,
		// when etcd starts.
		if err := RestoreSnapshot(restore, dataDir, bump, nil); err != nil {
			return err
		}
	}

	cfg := embed.NewConfig()
	cfg.Dir = dataDir
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(lg)
	// url.URL's Host is used verbatim as the socket path. The advertised
	// peer URL keeps etcd's default, http://localhost:2380: a single member
	// never dials its own peer URL, it only records it in the membership.
	clientURL := url.URL{Scheme: "unix", Host: filepath.Join(sockets, clientSocket)}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{{Scheme: "unix", Host: filepath.Join(sockets, peerSocket)}}
	// A single member wins its election after one election timeout; at
	// etcd's default (1s) that is most of the start-up time.
	cfg.TickMs = 10
	cfg.ElectionMs = 100
	cfg.UnsafeNoFsync = temporary // see "fsync" in doc.go
	cfg.EnableGRPCGateway = false
	// etcd keeps the last 5,000 raft entries in memory after each of its snapshots so that a slow
	// follower can catch up from them instead of a snapshot. A single member has no follower; those
	// entries (every pod write's full value among them) were tens of MiB of heap in a large cluster.
	// A cluster of members (member.go) keeps etcd's default.
	cfg.SnapshotCatchUpEntries = singleMemberCatchUpEntries
	cfg.QuotaBackendBytes = s.quota

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("start embedded etcd in %s: %w", dataDir, err)
	}
	s.etcd = e
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		return fmt.Errorf("embedded etcd in %s failed: %w", dataDir, err)
	case <-ctx.Done():
		return ctx.Err()
	}
	s.client = v3client.New(e.Server)
	// clientURL.String() would escape the slashes; etcd clients read
	// "unix:///abs/path" as an absolute socket path.
	s.clientURLs = []string{"unix://" + clientURL.Host}
	return nil
}

// prepareDataDir makes the directory etcd keeps its data in: dataDir, or a
// fresh temporary one (removed when the store closes) if it is empty, in
// which a restore gets an empty subdirectory, since the temporary one holds
// its owner's mark. It returns the directory's absolute path and the one the
// member's unix sockets go in (socketDir).
func (s *Store) prepareDataDir(dataDir string, restore bool) (dir, sockets string, err error) {
	if dataDir == "" {
		if dataDir, err = NewTempDir("etcd"); err != nil {
			return "", "", err
		}
		s.removeDirs = append(s.removeDirs, dataDir)
		if restore {
			dataDir = filepath.Join(dataDir, "restored")
		}
	}
	if dir, err = filepath.Abs(dataDir); err != nil {
		return "", "", err
	}
	// The sockets may live here, and etcd opens its listeners before it
	// creates its data directory. 0700 is the mode etcd asks for.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", err
	}
	sockets, err = s.socketDir(dir)
	return dir, sockets, err
}

// socketDir returns the directory for the member's sockets: dataDir itself
// when the paths fit, else a short temporary directory that Close removes.
func (s *Store) socketDir(dataDir string) (string, error) {
	if len(filepath.Join(dataDir, clientSocket)) <= maxSocketPath {
		return dataDir, nil
	}
	dir, err := newTempDir(tempPrefix + "sock-")
	if err != nil {
		return "", err
	}
	s.removeDirs = append(s.removeDirs, dir)
	return dir, nil
}

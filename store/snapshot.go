// This file is etcd's backup and restore: the daily snapshot that saves a
// cluster from an accidental `kubectl delete namespace`.
//
//	(*Store).SaveSnapshot    etcdctl snapshot save: the whole keyspace in one file
//	SnapshotRevision         etcdutl snapshot status: the revision a file holds
//	RestoreSnapshot          etcdutl snapshot restore: a new data directory from that file
//
// A snapshot is etcd's own: the member streams its bolt database
// (Maintenance.Snapshot) followed by a SHA-256 of it, and the restore is
// etcd's own too (go.etcd.io/etcd/etcdutl/v3/snapshot, the code behind
// `etcdutl snapshot restore`): it checks the hash, rewrites the membership
// for the new cluster and writes a fresh write-ahead log. A restored cluster
// is a new cluster, with a new cluster ID, whose data is the snapshot's;
// everything written after the snapshot is gone, which is why Kubernetes'
// backup guides ask for snapshots on a schedule.
//
// A restore under a running control plane takes its revision back in time:
// the snapshot's revision is lower than the ones the apiserver and every
// informer have seen, and a watch resumed from one of those would wait for
// revisions that mean something else now. etcd's guide for Kubernetes
// restores with --bump-revision and --mark-compacted: the revision jumps past
// every one a client saw and everything before it reads as compacted, so
// every watch that tries to resume is told its revision is gone (410 Gone
// at the apiserver) and lists again.

package store

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/etcdutl/v3/snapshot"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// SaveSnapshot writes a snapshot of the whole keyspace to path, as
// `etcdctl snapshot save path` does, and returns the revision it holds. The
// file appears only once complete and synced.
func (s *Store) SaveSnapshot(ctx context.Context, path string) (int64, error) {
	rev, err := s.CurrentRevision(ctx)
	if err != nil {
		return 0, err
	}
	client := s.client
	if s.etcd != nil {
		// etcd's in-process client cannot carry the snapshot stream; etcdctl
		// would dial the member's socket, and so does this.
		if client, err = clientv3.New(clientv3.Config{Endpoints: s.clientURLs, DialTimeout: dialTimeout, Logger: zap.NewNop()}); err != nil {
			return 0, fmt.Errorf("snapshot: %w", err)
		}
		defer client.Close()
	}
	rc, err := client.Snapshot(ctx)
	if err != nil {
		return 0, fmt.Errorf("snapshot: %w", err)
	}
	defer rc.Close()
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".part-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up a failure
	if _, err := io.Copy(tmp, rc); err != nil {
		tmp.Close()
		return 0, fmt.Errorf("snapshot: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, err
	}
	// The snapshot is taken after the revision was read, so it holds at
	// least that revision; nothing else writes in the moments between.
	return rev, nil
}

// SnapshotRevision returns the revision a snapshot file holds, as
// `etcdutl snapshot status` prints it.
func SnapshotRevision(file string) (int64, error) {
	st, err := snapshot.NewV3(zap.NewNop()).Status(file)
	if err != nil {
		return 0, fmt.Errorf("status of %s: %w", file, err)
	}
	return st.Revision, nil
}

// RestoreSnapshot makes dataDir, which must not exist or be empty, the data
// directory of a new one-member cluster holding the snapshot's keys: Open
// with Config{DataDir: dataDir} starts it. A bump above zero is etcdutl's
// `--bump-revision bump --mark-compacted`: the restored etcd's revision is
// the snapshot's plus bump, and every revision up to it is compacted.
func RestoreSnapshot(file, dataDir string, bump int64, logs io.Writer) error {
	if bump < 0 {
		return fmt.Errorf("restore %s: a negative revision bump (%d)", file, bump)
	}
	// The member is configured exactly as the one Open embeds (embed.go),
	// so the restored membership is the one it will find.
	cfg := embed.NewConfig()
	var peers []string
	for _, u := range cfg.AdvertisePeerUrls {
		peers = append(peers, u.String())
	}
	err := snapshot.NewV3(zapLogger(logs)).Restore(snapshot.RestoreConfig{
		SnapshotPath:        file,
		Name:                cfg.Name,
		OutputDataDir:       dataDir,
		PeerURLs:            peers,
		InitialCluster:      cfg.InitialClusterFromName(cfg.Name),
		InitialClusterToken: cfg.InitialClusterToken,
		RevisionBump:        uint64(bump),
		MarkCompacted:       bump > 0,
	})
	if err != nil {
		return fmt.Errorf("restore %s into %s: %w", file, dataDir, err)
	}
	return nil
}

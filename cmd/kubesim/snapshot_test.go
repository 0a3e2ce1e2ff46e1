package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// kubesim snapshot save of a kept etcd, then restore into a new data directory: the new etcd holds
// what the old one held when the snapshot was taken.
func TestSnapshotSaveAndRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old, file, restored := filepath.Join(dir, "old"), filepath.Join(dir, "snap.db"), filepath.Join(dir, "new")
	s, err := store.Open(ctx, store.Config{DataDir: old})
	require.NoError(t, err)
	_, err = s.Create(ctx, "/registry/namespaces/shop", []byte(`{"kind":"Namespace"}`))
	require.NoError(t, err)
	require.NoError(t, s.Close())

	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"snapshot", "save", file, "--data-dir", old}, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "saved a snapshot of etcd at revision 2")
	require.Equal(t, 0, run(ctx, []string{"snapshot", "restore", file, "--data-dir", restored}, nil, &out, &errOut), errOut.String())
	require.Equal(t, 1, run(ctx, []string{"snapshot", "restore", file, "--data-dir", restored}, nil, &out, &errOut),
		"a restore never overwrites a data directory")

	r, err := store.Open(ctx, store.Config{DataDir: restored})
	require.NoError(t, err)
	defer r.Close()
	kv, err := r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
	require.Equal(t, `{"kind":"Namespace"}`, string(kv.Value))
}

// A running `kubesim serve` prints its etcd's client URL, and a backup taken there while the cluster
// runs, as an administrator takes one with etcdctl on a control-plane node, holds what kubectl
// created; restored with a bumped revision, it starts past the snapshot's revision.
func TestSnapshotOfARunningServe(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	ctx := context.Background()
	s := startServe(t, serveOptions{speed: 1, port: freePort(t)})
	s.expect(a("create namespace shop"), `^namespace/shop created`)
	m := regexp.MustCompile(`backup: kubesim snapshot save FILE --endpoints (\S+) \(or etcdctl --endpoints (\S+) snapshot save FILE\)`).
		FindStringSubmatch(s.told.String())
	require.NotNil(t, m, "serve names its etcd's endpoints:\n%s", s.told.String())
	require.Equal(t, m[1], m[2])

	dir := t.TempDir()
	file, restored := filepath.Join(dir, "snap.db"), filepath.Join(dir, "restored")
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"snapshot", "save", file, "--endpoints", m[1]}, nil, &out, &errOut), errOut.String())
	rev, err := store.SnapshotRevision(file)
	require.NoError(t, err)
	require.Contains(t, out.String(), "saved a snapshot of etcd at revision ")
	s.stopServe()

	require.Equal(t, 2, run(ctx, []string{"snapshot", "restore", file, "--data-dir", restored, "--bump-revision", "100"}, nil, &out, &errOut),
		"--bump-revision goes with --mark-compacted, as etcdutl wants")
	require.Equal(t, 0, run(ctx, []string{"snapshot", "restore", file, "--data-dir", restored, "--bump-revision", "100", "--mark-compacted"}, nil, &out, &errOut),
		errOut.String())
	r, err := store.Open(ctx, store.Config{DataDir: restored})
	require.NoError(t, err)
	defer r.Close()
	_, err = r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err, "the namespace kubectl created is in the backup")
	now, err := r.CurrentRevision(ctx)
	require.NoError(t, err)
	require.Equal(t, rev+100, now)
}

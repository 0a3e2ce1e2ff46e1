package main

import (
	"bytes"
	"context"
	"path/filepath"
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

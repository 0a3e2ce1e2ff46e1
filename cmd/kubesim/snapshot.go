// snapshot.go: `kubesim snapshot`, etcd's backup and restore as an administrator runs them beside a
// control plane (etcdctl snapshot save, etcdutl snapshot restore), on kubesim's etcd:
//
//	kubesim snapshot save FILE --data-dir D          snapshot the etcd kept in D (not running)
//	kubesim snapshot save FILE --endpoints URL       snapshot a running etcd (e.g. its unix socket)
//	kubesim snapshot restore FILE --data-dir NEW     a new one-member etcd in NEW, holding FILE's keys
//	    [--bump-revision N --mark-compacted]         its revision N past the snapshot's, all before compacted
//
// A restored etcd is a new cluster; `kubesim run --data-dir NEW` (and serve) start from it.
package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"kubesim/store"
)

const snapshotUsage = `usage:
  kubesim snapshot save FILE (--data-dir DIR | --endpoints URL[,URL...])
  kubesim snapshot restore FILE --data-dir NEW_DIR [--bump-revision N --mark-compacted]
`

func snapshot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub, code, ok := subcommand(args, snapshotUsage, stderr, "save", "restore")
	if !ok {
		return code
	}
	fs := newFlags("snapshot "+sub, snapshotUsage, stderr)
	dataDir := fs.String("data-dir", "", "etcd's data directory")
	endpoints := fs.String("endpoints", "", "client URLs of a running etcd, comma-separated (save only)")
	bump := fs.Int64("bump-revision", 0, "restore only: how far past the snapshot's revision the restored etcd starts (with --mark-compacted)")
	compacted := fs.Bool("mark-compacted", false, "restore only: mark every revision before the bumped one compacted, so watchers relist (with --bump-revision)")
	// FILE may come before or after the flags.
	files, code, ok := parseCommand(fs, args[1:])
	switch {
	case !ok:
		return code
	case len(files) == 0:
		fmt.Fprint(stderr, snapshotUsage)
		return 2
	case len(files) > 1:
		fmt.Fprintf(stderr, "kubesim snapshot: one FILE, not %q and %q\n", files[0], files[1])
		return 2
	}
	file := files[0]
	if sub == "restore" {
		if *dataDir == "" || *endpoints != "" || (*bump > 0) != *compacted || *bump < 0 {
			fmt.Fprint(stderr, snapshotUsage)
			return 2
		}
		if err := store.RestoreSnapshot(file, *dataDir, *bump, nil); err != nil {
			fmt.Fprintf(stderr, "kubesim snapshot restore: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "restored %s into %s: a new etcd; start it with kubesim run --data-dir %s\n", file, *dataDir, *dataDir)
		return 0
	}
	if (*dataDir == "") == (*endpoints == "") || *bump != 0 || *compacted {
		fmt.Fprint(stderr, snapshotUsage)
		return 2
	}
	cfg := store.Config{DataDir: *dataDir}
	if *endpoints != "" {
		cfg = store.Config{Endpoints: strings.Split(*endpoints, ",")}
	}
	s, err := store.Open(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim snapshot save: %v\n", err)
		return 1
	}
	defer s.Close()
	rev, err := s.SaveSnapshot(ctx, file)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim snapshot save: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "saved a snapshot of etcd at revision %d to %s\n", rev, file)
	return 0
}

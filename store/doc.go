// Package store is kubesim's etcd and the thin storage layer the apiserver
// puts on top of it. It mirrors two real things at once: etcd itself (run
// embedded through go.etcd.io/etcd/server/v3/embed, or reached at external
// endpoints), and Kubernetes' etcd3 storage backend,
// k8s.io/apiserver/pkg/storage/etcd3, which turns etcd's transactions and
// watches into create, get, list, compare-and-swap update, delete and watch.
//
// Read next: k8s.io/apiserver/pkg/storage/etcd3/store.go (Create, Get,
// GuaranteedUpdate, Delete, GetList) and watcher.go (how a Kubernetes watch
// becomes an etcd watch), then the etcd data model at
// https://etcd.io/docs/v3.6/learning/data_model/. Of kubesim's
// components, the apiserver is the only importer (the wiring in sim and cmd
// opens the store to hand it to the apiserver); every other component
// reaches this data only through the apiserver, and design_test.go at the
// module's root fails if one imports it.
//
// # Keys and values
//
// The store treats keys and values as opaque. kubesim's apiserver lays keys
// out exactly as Kubernetes does, /registry/<resource>/<namespace>/<name>
// (cluster-scoped objects drop the namespace: /registry/nodes/node-1), and
// stores readable JSON where Kubernetes stores protobuf. So a learner can
// look at the cluster's state with the real etcdctl:
//
//	etcdctl --endpoints unix:///tmp/kubesim-etcd-123/etcd:2379 get --prefix /registry/pods
//
// with the URL that Store.ClientURLs returns.
//
// # Revisions
//
// etcd numbers every change with one cluster-wide, strictly increasing
// revision. A key remembers the revision that created it (CreateRevision)
// and the one that last changed it (ModRevision). The apiserver publishes
// ModRevision as the object's resourceVersion, which is why an update that
// carries a stale resourceVersion fails with a Conflict: Update is a
// compare-and-swap on ModRevision, done in one etcd transaction.
//
// # What this package promises
//
//  1. Create fails with ErrKeyExists if the key is present; Update and Delete
//     fail with a *ConflictError carrying the current value when the key's
//     ModRevision moved, and with ErrNotFound when the key is gone.
//  2. Every successful write returns the revision it created, and those
//     revisions strictly increase.
//  3. List returns the state at one revision, the current one or an older
//     one that has not been compacted.
//  4. A Watch delivers every change under its prefix from its start revision
//     on, each exactly once and in revision order. If that history has been
//     compacted away, the watch ends with a *CompactedError, which is what
//     the apiserver turns into 410 Gone ("too old resource version").
//  5. SetWriteLatency slows every write on the injected clock: the slow-disk
//     fault.
//  6. Without a DataDir, the member lives in a temporary directory that
//     Close removes. One that a killed process left behind is removed by
//     the next Open, and only when it is surely kubesim's and its owner is
//     gone (tempdir.go says how it knows).
//
// # What it simplifies
//
//  6. Config.Members runs a real cluster of 1, 3 or 5 members (cluster.go)
//     whose members can be stopped, started, cut off and slowed, and which
//     tells the trace its elections; SaveSnapshot and RestoreSnapshot are
//     etcd's own backup and restore (snapshot.go); Config.Restore starts
//     the member from a snapshot, with etcdutl's --bump-revision and
//     --mark-compacted for a restore under a running control plane.
//
// # fsync
//
// etcd fsyncs its write-ahead log before it acknowledges a write: that is
// what makes an acknowledged write survive a crash. A member whose data must
// survive (a DataDir was given) does so. A member in a temporary directory,
// which Close deletes anyway, skips it (etcd's --unsafe-no-fsync), which is
// why tests and scenarios are fast; SetWriteLatency and Cluster.Slow are the
// ways to see what a slow disk does to the control plane.
//
// # What it simplifies
//
//   - The default member listens only on unix sockets in its data
//     directory, so parallel tests and processes never compete for ports;
//     requests go through etcd's in-process client and never touch a socket.
//     Its watches go further in: they read the member's own watch stream
//     (watch.go, watchMember), not etcd's gRPC watch server and the client's
//     watch goroutines, which add several goroutine hops to every event and
//     nothing a watcher sees.
//     A cluster's members listen on unix sockets too and are reached through
//     them; only their peer links are loopback TCP, on ports the kernel picks.
//   - Ticks are 10ms and the election timeout 100ms (300ms in a cluster;
//     etcd's defaults are 100ms and 1s), so a fresh member elects itself in
//     a few milliseconds;
//     in a cluster only the lowest-numbered member that runs and reaches
//     its peers may campaign (its peer links drop the others' vote
//     requests, election.go), so every election has one winner and one
//     term, and a leader that is not that member hands over to it
//     (Cluster.WaitForLeader).
//   - A cluster's peer ports are chosen anew by each process, so a cluster
//     kept in a DataDir reopens only in the process that made it; a restored
//     snapshot is a one-member cluster.
//   - No progress notifications, which Kubernetes uses. Leases serve only
//     keys that expire (lease.go), as Kubernetes uses them for Events.
package store

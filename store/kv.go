// This file is the store's request/response half: reads and writes of
// single keys and prefixes, each one etcd request.
//
//	KV                              one key at one revision
//	Create, Get, List               put-if-absent, read, read a prefix
//	ListPage                        read a prefix a page at a time
//	Update, Delete                  compare-and-swap on ModRevision
//	Compact, CurrentRevision        history maintenance
//
// CreateWithTTL and UpdateWithTTL, the writes of keys that expire, are in
// lease.go.
//
// Writes are etcd transactions, as in k8s.io/apiserver/pkg/storage/etcd3:
// "if the key is as I last saw it, then write, else tell me what it is now".
// The else branch reads the key in the same round trip, so a caller that
// loses a race gets the current value with the error and can retry at once.

package store

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// KV is one key's value at one revision.
type KV struct {
	Key string
	// Value is read-only: with the embedded member, etcd hands the same
	// bytes to every watcher of the key.
	Value []byte
	// CreateRevision is the revision that created the key; it changes only
	// if the key is deleted and created again.
	CreateRevision int64
	// ModRevision is the revision of the key's last change. The apiserver
	// publishes it as the object's resourceVersion.
	ModRevision int64
}

func kvFrom(kv *mvccpb.KeyValue) KV {
	return KV{
		Key:            string(kv.Key),
		Value:          kv.Value,
		CreateRevision: kv.CreateRevision,
		ModRevision:    kv.ModRevision,
	}
}

// Create stores value at key if the key does not exist, and returns the
// revision of the write. It fails with ErrKeyExists otherwise.
func (s *Store) Create(ctx context.Context, key string, value []byte) (int64, error) {
	return s.create(ctx, key, value)
}

// create is Create with options for the put (a lease).
func (s *Store) create(ctx context.Context, key string, value []byte, opts ...clientv3.OpOption) (int64, error) {
	s.beforeWrite(value)
	resp, err := s.client.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, borrowString(value), opts...)).
		Commit()
	if err != nil {
		return 0, fmt.Errorf("create %q: %w", key, translate(err))
	}
	if !resp.Succeeded {
		return 0, fmt.Errorf("create %q: %w", key, ErrKeyExists)
	}
	return resp.Header.Revision, nil
}

// Get returns the current value of key, or ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) (KV, error) {
	s.reads.Add(1)
	resp, err := s.client.Get(ctx, key)
	if err != nil {
		return KV{}, fmt.Errorf("get %q: %w", key, translate(err))
	}
	if len(resp.Kvs) == 0 {
		return KV{}, fmt.Errorf("get %q: %w", key, ErrNotFound)
	}
	return kvFrom(resp.Kvs[0]), nil
}

// GetAt returns the value key had as of revision rev: ErrNotFound if it had none, ErrCompacted if
// rev is older than the last compaction. A watch without its previous values (WithoutPrevious) asks
// this for the value a deleted key had.
func (s *Store) GetAt(ctx context.Context, key string, rev int64) (KV, error) {
	s.reads.Add(1)
	resp, err := s.client.Get(ctx, key, clientv3.WithRev(rev))
	if err != nil {
		return KV{}, fmt.Errorf("get %q at revision %d: %w", key, rev, translate(err))
	}
	if len(resp.Kvs) == 0 {
		return KV{}, fmt.Errorf("get %q at revision %d: %w", key, rev, ErrNotFound)
	}
	return kvFrom(resp.Kvs[0]), nil
}

// List returns every key under prefix, sorted by key, as of atRevision (0
// means now), together with the revision the result is consistent at. A
// watch from that revision + 1 sees every change the list missed: the
// list-then-watch pattern that Kubernetes informers are built on.
//
// An atRevision older than the last compaction fails with ErrCompacted, a
// revision not yet written with ErrFutureRevision.
func (s *Store) List(ctx context.Context, prefix string, atRevision int64) ([]KV, int64, error) {
	kvs, _, rev, err := s.ListPage(ctx, prefix, "", atRevision, 0)
	return kvs, rev, err
}

// ListPage reads at most limit keys under prefix (0: all), sorted, from fromKey
// on ("" for the prefix's first key), as of atRevision (0 means now): one page
// of a list that the apiserver serves in chunks. It returns the keys, how many
// keys the range from fromKey to the prefix's end holds in all (more than were
// returned when the list goes on), and the revision read. Errors are List's.
func (s *Store) ListPage(ctx context.Context, prefix, fromKey string, atRevision, limit int64) ([]KV, int64, int64, error) {
	s.lists.Add(1)
	from := fromKey
	if from == "" {
		from = prefix
	}
	opts := []clientv3.OpOption{clientv3.WithRange(clientv3.GetPrefixRangeEnd(prefix)), clientv3.WithLimit(limit)}
	if atRevision > 0 {
		opts = append(opts, clientv3.WithRev(atRevision))
	}
	resp, err := s.client.Get(ctx, from, opts...)
	if err != nil {
		if fromKey != "" {
			return nil, 0, 0, fmt.Errorf("list %q from %q at revision %d: %w", prefix, fromKey, atRevision, translate(err))
		}
		return nil, 0, 0, fmt.Errorf("list %q at revision %d: %w", prefix, atRevision, translate(err))
	}
	kvs := make([]KV, len(resp.Kvs))
	for i, kv := range resp.Kvs {
		kvs[i] = kvFrom(kv)
	}
	// The header always carries the current revision, even for a read in
	// the past.
	rev := resp.Header.Revision
	if atRevision > 0 {
		rev = atRevision
	}
	return kvs, resp.Count, rev, nil
}

// Update replaces the value at key if the key's ModRevision is still
// expectModRevision (0 means any revision, as long as the key exists), and
// returns the revision of the write. If the key moved on it fails with a
// *ConflictError holding the current value; if the key is gone, with
// ErrNotFound.
func (s *Store) Update(ctx context.Context, key string, value []byte, expectModRevision int64) (int64, error) {
	return s.update(ctx, key, value, expectModRevision)
}

// update is Update with options for the put (a lease).
func (s *Store) update(ctx context.Context, key string, value []byte, expectModRevision int64, opts ...clientv3.OpOption) (int64, error) {
	s.beforeWrite(value)
	resp, err := s.client.Txn(ctx).
		If(expect(key, expectModRevision)).
		Then(clientv3.OpPut(key, borrowString(value), opts...)).
		Else(clientv3.OpGet(key)).
		Commit()
	if err != nil {
		return 0, fmt.Errorf("update %q: %w", key, translate(err))
	}
	if !resp.Succeeded {
		return 0, casFailure("update", key, expectModRevision, resp)
	}
	return resp.Header.Revision, nil
}

// Delete removes key if its ModRevision is still expectModRevision (0
// means unconditionally), and returns the value it had and the revision of
// the delete. It fails like Update.
func (s *Store) Delete(ctx context.Context, key string, expectModRevision int64) (KV, int64, error) {
	s.beforeWrite(nil)
	resp, err := s.client.Txn(ctx).
		If(expect(key, expectModRevision)).
		Then(clientv3.OpDelete(key, clientv3.WithPrevKV())).
		Else(clientv3.OpGet(key)).
		Commit()
	if err != nil {
		return KV{}, 0, fmt.Errorf("delete %q: %w", key, translate(err))
	}
	if !resp.Succeeded {
		return KV{}, 0, casFailure("delete", key, expectModRevision, resp)
	}
	prev := resp.Responses[0].GetResponseDeleteRange().PrevKvs
	if len(prev) == 0 {
		// The compare proved the key existed in this same transaction.
		return KV{}, 0, fmt.Errorf("delete %q: etcd returned no previous value", key)
	}
	return kvFrom(prev[0]), resp.Header.Revision, nil
}

// expect is the compare of a conditional write: the key exists and, unless
// modRevision is 0, was last changed at modRevision.
func expect(key string, modRevision int64) clientv3.Cmp {
	if modRevision == 0 {
		return clientv3.Compare(clientv3.CreateRevision(key), ">", 0)
	}
	return clientv3.Compare(clientv3.ModRevision(key), "=", modRevision)
}

// casFailure explains a failed conditional write from its else branch, which
// read the key: absent means ErrNotFound, present means a conflict.
func casFailure(op, key string, expected int64, resp *clientv3.TxnResponse) error {
	kvs := resp.Responses[0].GetResponseRange().Kvs
	if len(kvs) == 0 {
		return fmt.Errorf("%s %q: %w", op, key, ErrNotFound)
	}
	return &ConflictError{Key: key, Expected: expected, Current: kvFrom(kvs[0])}
}

// Compact discards the history before rev: reads and watches at older
// revisions fail from now on. The kube-apiserver asks etcd for this every
// 5 minutes (--etcd-compaction-interval). Compact returns once the old
// revisions are gone from disk.
func (s *Store) Compact(ctx context.Context, rev int64) error {
	s.compacting.RLock()
	defer s.compacting.RUnlock()
	if s.closed.Load() {
		return fmt.Errorf("compact at revision %d: the store is closed", rev)
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(s.closing, stop)()
	if _, err := s.client.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		return fmt.Errorf("compact at revision %d: %w", rev, translate(err))
	}
	return nil
}

// CurrentRevision returns the revision of the store's latest change.
func (s *Store) CurrentRevision(ctx context.Context) (int64, error) {
	// Every etcd response header carries the current revision; counting a
	// single key is the cheapest request that returns one.
	resp, err := s.client.Get(ctx, "/", clientv3.WithCountOnly())
	if err != nil {
		return 0, fmt.Errorf("current revision: %w", translate(err))
	}
	return resp.Header.Revision, nil
}

// borrowString views value as a string without copying it, for clientv3.OpPut, which copies the
// string into a []byte of its own at once: converting with string(value) copied every value twice
// (a pod's JSON, 1-2 KB, on every write). value must not change during the call; nothing keeps the
// string after it.
func borrowString(value []byte) string {
	return unsafe.String(unsafe.SliceData(value), len(value))
}

// translate turns etcd's revision errors into the store's own, and leaves
// any other error as it is.
func translate(err error) error {
	switch {
	case errors.Is(err, rpctypes.ErrCompacted):
		return ErrCompacted
	case errors.Is(err, rpctypes.ErrFutureRev):
		return ErrFutureRevision
	}
	return err
}

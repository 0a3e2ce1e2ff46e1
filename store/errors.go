// This file holds the store's typed errors: the four ways a storage request
// can fail for reasons the apiserver must report to its caller.
//
//	ErrNotFound, ErrKeyExists, ErrCompacted, ErrFutureRevision  sentinels
//	*ConflictError   an Update or Delete lost a compare-and-swap race
//	*CompactedError  a Watch started before the compacted revision
//	IsNotFound, IsKeyExists, IsConflict, IsCompacted
//
// They mirror the storage errors of k8s.io/apiserver/pkg/storage (errors.go):
// ErrCodeKeyNotFound, ErrCodeKeyExists, ErrCodeResourceVersionConflicts and
// the "too old resource version" that etcd compaction causes. The apiserver
// maps them to 404 NotFound, 409 AlreadyExists, 409 Conflict and 410 Gone.

package store

import (
	"errors"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
)

var (
	// ErrNotFound means the key does not exist (or no longer exists).
	ErrNotFound = errors.New("key not found")
	// ErrKeyExists means Create found the key already present.
	ErrKeyExists = errors.New("key already exists")
	// ErrCompacted means the requested revision is older than the last
	// compaction, so etcd no longer has that history.
	ErrCompacted = errors.New("required revision has been compacted")
	// ErrFutureRevision means the requested revision is newer than the
	// store's current revision. Kubernetes answers such a list with
	// "Too large resource version".
	ErrFutureRevision = errors.New("required revision is a future revision")
)

// ConflictError reports that a compare-and-swap failed: the key's
// ModRevision was no longer the one the caller read. Current is the value
// the store holds now, so the caller can retry without another read, as
// Kubernetes' GuaranteedUpdate does.
type ConflictError struct {
	Key      string
	Expected int64 // the ModRevision the caller expected
	Current  KV
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("conflict on %q: expected mod revision %d, found %d",
		e.Key, e.Expected, e.Current.ModRevision)
}

// CompactedError ends a Watch whose next revision has been compacted away.
// It also matches ErrCompacted with errors.Is.
type CompactedError struct {
	Requested int64 // the first revision the watch still needed
	Compacted int64 // the revision the store was compacted at
}

func (e *CompactedError) Error() string {
	return fmt.Sprintf("watch from revision %d: %v (compacted at %d)",
		e.Requested, ErrCompacted, e.Compacted)
}

// Is makes errors.Is(err, ErrCompacted) true for a *CompactedError.
func (e *CompactedError) Is(target error) bool { return target == ErrCompacted }

// Timeout returns etcd's own words when err is its request timeout
// ("etcdserver: request timed out", or a variant naming a lost leader or
// connection): a write no quorum committed within etcd's request timeout,
// 5s plus two election timeouts.
func Timeout(err error) (string, bool) {
	var e rpctypes.EtcdError
	if errors.As(err, &e) && strings.HasPrefix(e.Error(), rpctypes.ErrTimeout.Error()) {
		return e.Error(), true
	}
	return "", false
}

// NoSpace returns etcd's own words when err is its refusal of a write once
// the database reached its quota ("etcdserver: mvcc: database space
// exceeded", the NOSPACE alarm; see Config.QuotaBackendBytes).
func NoSpace(err error) (string, bool) {
	if errors.Is(err, rpctypes.ErrNoSpace) {
		return rpctypes.ErrNoSpace.Error(), true
	}
	return "", false
}

// IsNotFound reports whether err means the key does not exist.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// IsKeyExists reports whether err means Create found the key present.
func IsKeyExists(err error) bool { return errors.Is(err, ErrKeyExists) }

// IsConflict reports whether err is (or wraps) a *ConflictError.
func IsConflict(err error) bool {
	var c *ConflictError
	return errors.As(err, &c)
}

// IsCompacted reports whether err means the requested history was
// compacted, for a List (ErrCompacted) or a Watch (*CompactedError).
func IsCompacted(err error) bool { return errors.Is(err, ErrCompacted) }

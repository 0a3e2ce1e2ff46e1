// This file is the store's expiring keys: etcd leases, as the kube-apiserver uses them for Events
// (--event-ttl, one hour by default; k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go).
//
//	CreateWithTTL, UpdateWithTTL   a write whose key etcd deletes ttl after it
//	leaseManager                   one lease shared by the keys written within a minute
//
// A lease is etcd's, on etcd's wall clock: when it expires, etcd deletes every key attached to it in
// one revision, and watchers see the deletes like any other. Granting a lease per key would double the
// writes, so, like the kube-apiserver, the store reuses a lease for the keys written within a short
// window (at most a minute, or 5% of the TTL) and up to 1,000 keys, granting it that window longer
// than asked: a key lives between ttl and ttl plus the window.

package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// The kube-apiserver's lease reuse limits (its defaults for --lease-reuse-duration-seconds and the
// lease manager's object count).
const (
	leaseReuseWindow   = 60 * time.Second
	leaseMaxAttachment = 1000
)

// leaseManager hands out the lease a write with a TTL attaches its key to.
type leaseManager struct {
	mu       sync.Mutex
	id       clientv3.LeaseID // the lease last granted (0: none yet)
	expires  time.Time        // when it expires, by the wall clock
	attached int              // keys attached to it so far
}

// lease returns a lease that lives at least ttl from now, granting a new one when the last cannot be
// reused.
func (s *Store) lease(ctx context.Context, ttl time.Duration) (clientv3.LeaseID, error) {
	m := &s.leases
	m.mu.Lock()
	defer m.mu.Unlock()
	window := min(leaseReuseWindow, ttl/20)
	now := time.Now()
	longEnough := now.Add(ttl).Before(m.expires)
	notTooLong := now.Add(ttl + window).After(m.expires)
	if m.id != 0 && longEnough && notTooLong && m.attached < leaseMaxAttachment {
		m.attached++
		return m.id, nil
	}
	grant := ttl + window
	resp, err := s.client.Grant(ctx, int64((grant+time.Second-1)/time.Second))
	if err != nil {
		return 0, fmt.Errorf("lease grant of %s: %w", grant, translate(err))
	}
	m.id, m.expires, m.attached = resp.ID, now.Add(grant), 1
	return m.id, nil
}

// CreateWithTTL is Create for a key that etcd deletes once ttl has passed.
func (s *Store) CreateWithTTL(ctx context.Context, key string, value []byte, ttl time.Duration) (int64, error) {
	id, err := s.lease(ctx, ttl)
	if err != nil {
		return 0, fmt.Errorf("create %q: %w", key, err)
	}
	return s.create(ctx, key, value, clientv3.WithLease(id))
}

// UpdateWithTTL is Update for a key that etcd deletes once ttl has passed since this write: each
// write attaches the key to a lease anew, as a put without a lease would detach it.
func (s *Store) UpdateWithTTL(ctx context.Context, key string, value []byte, expectModRevision int64, ttl time.Duration) (int64, error) {
	id, err := s.lease(ctx, ttl)
	if err != nil {
		return 0, fmt.Errorf("update %q: %w", key, err)
	}
	return s.update(ctx, key, value, expectModRevision, clientv3.WithLease(id))
}

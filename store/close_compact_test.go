package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A compaction asked for while the store closes, or after, is refused, not run against a member
// whose database is gone (the apiserver's compaction timer may fire as a cluster shuts down).
func TestCompactAfterCloseIsRefused(t *testing.T) {
	s, err := Open(context.Background(), Config{})
	require.NoError(t, err)
	_, err = s.Create(context.Background(), "/k", []byte("v"))
	require.NoError(t, err)
	rev, err := s.CurrentRevision(context.Background())
	require.NoError(t, err)
	require.NoError(t, s.Compact(context.Background(), rev))

	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("Close did not return")
	}
	err = s.Compact(context.Background(), rev)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the store is closed")
}

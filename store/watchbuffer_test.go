package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.etcd.io/etcd/server/v3/storage/mvcc"
)

// The linker reached etcd's variable: every watch stream a member opens holds watchStreamBuffer
// responses, not etcd's 128.
func TestEtcdWatchStreamsHaveTheNetworksSlack(t *testing.T) {
	assert.Equal(t, watchStreamBuffer, mvcc.ChanBufLen())
	assert.Greater(t, mvcc.ChanBufLen(), 128)
}

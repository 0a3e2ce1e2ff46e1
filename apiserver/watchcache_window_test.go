package apiserver

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/store"
)

// The window: a watch may resume from any of the last window changes of a resource (and from a
// few more, until the next trim), and the cache never holds more than a quarter more than the
// window, so the old objects it keeps for resuming watchers are bounded by the window, not by twice
// it.
func TestWatchWindowKeepsAtLeastTheWindowAndAtMostAQuarterMore(t *testing.T) {
	const window = 40
	c := newWatchCache(window)
	res, _ := api.ResourceFor("pods")
	rc := c.resources[res.Name]
	value, err := json.Marshal(nginxPod("p"))
	require.NoError(t, err)
	largest := 0
	for rev := int64(1); rev <= 500; rev++ {
		c.mu.Lock()
		c.applyLocked(store.Event{Type: store.Put, Revision: rev,
			KV: store.KV{Key: "/registry/pods/default/p", Value: value, ModRevision: rev}})
		largest = max(largest, len(rc.events))
		c.mu.Unlock()

		from := max(rev-window, 0) // the oldest resourceVersion the window promises
		w, err := c.watch(res, everythingSelection(), &from, false)
		require.NoError(t, err, "resuming from %d at revision %d", from, rev)
		assert.Equal(t, int(rev-from), w.Pending(), "every change after %d", from)
		w.Stop()
	}
	assert.Equal(t, window+window/4-1, largest, "the window grows by a quarter, less one, then is trimmed")

	old := rc.floor - 1
	_, err = c.watch(res, everythingSelection(), &old, false)
	assert.True(t, apierrors.IsResourceExpired(err), "a resourceVersion past the slack is 410 Gone: %v", err)
	assert.Contains(t, err.Error(), "too old resource version: "+strconv.FormatInt(old, 10))
}

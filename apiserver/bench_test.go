package apiserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
)

// BenchmarkWatchFanOut measures delivering pod changes to many node-filtered watchers (one per
// kubelet): each change reaches only the watchers of its node, so the cost per change must not grow
// with the number of watchers.
func BenchmarkWatchFanOut(b *testing.B) {
	for _, watchers := range []int{10, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			c := newWatchCache(defaultWindow)
			res, _ := api.ResourceFor("pods")
			rc := c.resources[res.Name]
			for i := 0; i < watchers; i++ {
				sel, err := newSelection(res, "", "", fmt.Sprintf("spec.nodeName=node-%d", i))
				require.NoError(b, err)
				_, err = c.watch(res, sel, nil, false)
				require.NoError(b, err)
			}
			p := nginxPod("p")
			p.Spec.NodeName = "node-0"
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.mu.Lock()
				rc.dispatch(cacheEvent{rev: int64(i), key: "default/p", obj: p, prev: p})
				c.mu.Unlock()
			}
		})
	}
}

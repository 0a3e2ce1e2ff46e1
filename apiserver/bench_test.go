package apiserver

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/wire"
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

// BenchmarkStatusUpdate measures a kubelet's kind of write: a pod's status, each based on the
// version the previous write returned.
func BenchmarkStatusUpdate(b *testing.B) {
	ts := newTestServer(b)
	pod := ts.create(b, nginxPod("status")).(*api.Pod)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next := api.DeepCopy(pod)
		next.Status.Message = strconv.Itoa(i)
		resp, err := ts.do(b, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: next})
		if err != nil {
			b.Fatal(err)
		}
		pod = resp.Object.(*api.Pod)
	}
}

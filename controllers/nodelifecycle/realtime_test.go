package nodelifecycle_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
)

// In real time (sped up 100 times), a node whose Lease is never renewed is marked Unknown and
// tainted, while one that keeps renewing stays Ready.
func TestASilentNodeIsTaintedInRealTime(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(100))
	for _, n := range []string{"node-1", "node-2"} {
		kc := kubelet(c, n)
		now := api.NewTime(c.Now())
		_, err := client.For[api.Node](kc).Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: n},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: now, LastTransitionTime: now}}}})
		require.NoError(t, err)
		_, err = client.For[api.Lease](kc).Create(ctx, &api.Lease{ObjectMeta: api.ObjectMeta{Name: n, Namespace: api.NamespaceNodeLease},
			Spec: api.LeaseSpec{HolderIdentity: api.Ptr(n), RenewTime: api.Ptr(api.NewMicroTime(c.Now()))}})
		require.NoError(t, err)
	}
	// node-1's "kubelet" renews its Lease every 10 s of cluster time.
	go func() {
		leases := client.For[api.Lease](kubelet(c, "node-1"))
		for {
			select {
			case <-ctx.Done():
				return
			case <-c.Clock.After(10 * time.Second):
			}
			if l, err := leases.Get(ctx, api.NamespaceNodeLease, "node-1"); err == nil {
				l.Spec.RenewTime = api.Ptr(api.NewMicroTime(c.Now()))
				_, _ = leases.Update(ctx, l)
			}
		}
	}()
	require.NoError(t, c.Add(ctx, newController(c)))

	nodes := client.For[api.Node](c.Kubectl.Client())
	require.Eventually(t, func() bool {
		n, err := nodes.Get(ctx, "", "node-2")
		return err == nil && hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil
	}, 10*time.Second, 10*time.Millisecond)
	n1, err := nodes.Get(ctx, "", "node-1")
	require.NoError(t, err)
	require.Equal(t, api.ConditionTrue, ready(n1).Status)
}

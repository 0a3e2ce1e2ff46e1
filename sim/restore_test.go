package sim_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// Restoring etcd under a running cluster (https://kubernetes.io/docs/tasks/administer-cluster/configure-upgrade-etcd/#restoring-an-etcd-cluster):
// what was deleted after the snapshot is back through the apiserver, the restored revision is past
// every one a client saw, and the components list again instead of resuming their watches.
func TestRestoreRebuildsTheRunningControlPlane(t *testing.T) {
	ctx := context.Background()
	cfg := sim.Config{Seed: 1, KeepTrace: true, ControllerManager: true}
	c, err := sim.New(ctx, cfg)
	require.NoError(t, err)
	defer c.Close()

	_, err = c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "shop"}})
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "snapshot.db")
	_, err = c.SnapshotEtcd(ctx, file)
	require.NoError(t, err)
	require.NoError(t, c.Kubectl.Delete(ctx, "namespaces", "", "shop", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunUntil(ctx, "namespace shop gone", func() (bool, error) {
		left, err := sim.List[api.Namespace](ctx, c, "", "", "shop")
		return len(left) == 0, err
	}, 0))
	seen, err := c.Ledger().CurrentRevision(ctx)
	require.NoError(t, err)

	restored, err := c.RestoreEtcdSnapshot(ctx, file)
	require.NoError(t, err)
	assert.Greater(t, restored, seen, "the restored revision is past every one a client saw")
	ns, err := sim.Get[api.Namespace](ctx, c, "", "shop")
	require.NoError(t, err, "the deleted namespace is back through the apiserver")
	assert.Equal(t, api.NamespaceActive, ns.Status.Phase)

	require.NoError(t, c.Driver.RunDue(ctx, 0))
	_, relisted := sim.FindLine(c.Trace.Events(), "kube-controller-manager",
		"namespaces: watch from resourceVersion "+strconv.FormatInt(seen, 10)+" answered 410 Gone")
	assert.True(t, relisted, "the controller manager lists namespaces again instead of resuming its watch")

	created, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "after"}})
	require.NoError(t, err, "the restarted apiserver takes writes")
	rv, _ := strconv.ParseInt(created.GetObjectMeta().ResourceVersion, 10, 64)
	assert.Greater(t, rv, restored)

	multi, err := sim.New(ctx, sim.Config{Seed: 1, EtcdMembers: 3})
	require.NoError(t, err)
	defer multi.Close()
	_, err = multi.RestoreEtcdSnapshot(ctx, file)
	assert.Error(t, err, "kubesim restores only its one in-process member under a running cluster")
}

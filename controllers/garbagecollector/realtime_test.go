package garbagecollector_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
)

func TestBackgroundPropagationInRealTime(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(100), startCollector, createReplicaSetWithPod("web-1"))
	require.NoError(t, c.Kubectl.Delete(ctx, "replicasets", "default", "web", client.DeleteOptions{}))
	require.Eventually(t, func() bool {
		_, err := client.For[api.Pod](c.Kubectl.Client()).Get(ctx, "default", "web-1")
		return err != nil
	}, 5*time.Second, 10*time.Millisecond, "the collector deletes the orphaned pod")
}

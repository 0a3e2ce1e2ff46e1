package garbagecollector_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/garbagecollector"
	"kubesim/sim"
)

func TestBackgroundPropagationInRealTime(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Speed: 100, Seed: 1})
	require.NoError(t, err)
	defer c.Close()
	cl := c.Client(garbagecollector.Identity, garbagecollector.Name)
	require.NoError(t, c.Add(ctx, garbagecollector.New(cl, client.NewInformerFactory(cl, c.Clock, c.Trace), c.Clock, c.Trace)))

	admin := c.Kubectl.Client()
	labels := map[string]string{"app": "web"}
	spec := api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}
	rs, err := client.For[api.ReplicaSet](admin).Create(ctx, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](1), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: spec}}})
	require.NoError(t, err)
	pods := client.For[api.Pod](admin)
	_, err = pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: labels,
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID}}}, Spec: spec})
	require.NoError(t, err)
	require.NoError(t, c.Kubectl.Delete(ctx, "replicasets", "default", "web", client.DeleteOptions{}))
	require.Eventually(t, func() bool {
		_, err := pods.Get(ctx, "default", "web-1")
		return err != nil
	}, 5*time.Second, 10*time.Millisecond, "the collector deletes the orphaned pod")
}

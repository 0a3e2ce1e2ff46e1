package garbagecollector_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/garbagecollector"
	"kubesim/internal/testenv"
)

func TestBackgroundPropagationInRealTime(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(100))
	d := testenv.ForController(c, garbagecollector.Name)
	testenv.Add(t, ctx, c, garbagecollector.New(d.Client, d.Informers, d.Clock, d.Trace))

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

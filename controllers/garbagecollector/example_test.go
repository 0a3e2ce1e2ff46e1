package garbagecollector_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/garbagecollector"
	"kubesim/internal/testenv"
)

// A ReplicaSet owns a Pod through an ownerReference. Deleting the ReplicaSet (background
// propagation, the default) leaves the Pod's owner gone, and the garbage collector deletes the Pod.
func Example() {
	c, ctx := testenv.Start(testenv.Step)
	defer c.Close()
	d := testenv.ForController(c, garbagecollector.Name)
	if err := c.Add(ctx, garbagecollector.New(d.Client, d.Informers, d.Clock, d.Trace)); err != nil {
		panic(err)
	}
	admin := c.Kubectl.Client()
	labels := map[string]string{"app": "web"}
	spec := api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}
	rs, err := client.For[api.ReplicaSet](admin).Create(ctx, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](1), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: spec}}})
	if err != nil {
		panic(err)
	}
	_, err = client.For[api.Pod](admin).Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-x2k9p", Namespace: "default", Labels: labels,
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: api.Ptr(true)}}},
		Spec: spec})
	if err != nil {
		panic(err)
	}
	if err := c.Driver.RunIdle(ctx, 10); err != nil { // the collector's caches see both
		panic(err)
	}
	if err := c.Kubectl.Delete(ctx, "replicasets", "default", "web", client.DeleteOptions{}); err != nil {
		panic(err)
	}
	if err := c.Driver.RunIdle(ctx, 10); err != nil {
		panic(err)
	}
	for _, e := range c.Trace.Events() {
		if e.Component == garbagecollector.Name && !e.Detail {
			fmt.Println(e.Message)
		}
	}
	// Output:
	// replicasets/default/web is gone: check its dependents [pods/default/web-x2k9p]
	// delete pods/default/web-x2k9p: its owner replicasets/default/web is gone (background propagation)
}

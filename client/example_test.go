package client_test

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/store"
)

// An informer lists, then watches, and calls its handlers for every change, in order.
func ExampleInformer() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, _ := store.Open(ctx, store.Config{})
	defer st.Close()
	clk := clock.NewVirtual(time.Unix(0, 0))
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clk, Seed: 1})
	_ = srv.Start(ctx)
	srv.AddCredential(apiserver.Credential{Token: "t", User: apiserver.User{Name: "admin", Groups: []string{apiserver.GroupMasters}}})
	c := client.New(srv, "t", "example")

	inf := client.NewInformer[api.Namespace](c, client.InformerOptions{Clock: clk})
	inf.AddHandler(client.Handler[*api.Namespace]{
		OnAdd:    func(ns *api.Namespace) { fmt.Println("added", ns.Name) },
		OnDelete: func(ns *api.Namespace) { fmt.Println("deleted", ns.Name) },
	})
	_ = inf.Sync(ctx) // lists the four system namespaces

	_, _ = client.For[api.Namespace](c).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"}})
	rev, _ := st.CurrentRevision(ctx)
	_ = srv.WaitForRevision(ctx, rev)
	_, _ = inf.Pump(ctx) // applies the watch event
	fmt.Println(inf.Len(), "namespaces cached")
	// Output:
	// added default
	// added kube-node-lease
	// added kube-public
	// added kube-system
	// added team-a
	// 5 namespaces cached
}

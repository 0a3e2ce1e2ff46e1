package apiserver_test

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/wire"
)

// A request passes every gate or stops at the first that refuses it, with Kubernetes' own answer.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clock.NewVirtual(time.Unix(0, 0)), Seed: 1})
	if err := srv.Start(ctx); err != nil {
		panic(err)
	}
	srv.AddCredential(apiserver.Credential{Token: "t-admin", User: apiserver.User{Name: "admin", Groups: []string{apiserver.GroupMasters}}})
	srv.AddCredential(apiserver.Credential{Token: "t-alice", User: apiserver.User{Name: "alice"}})

	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	for _, token := range []string{"t-nobody", "t-alice", "t-admin"} {
		resp, err := srv.Do(ctx, &wire.Request{Token: token, Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: pod})
		if err != nil {
			fmt.Println(err)
			continue
		}
		created := resp.Object.(*api.Pod)
		fmt.Printf("created %s/%s: restartPolicy %s, serviceAccountName %s\n", created.Namespace, created.Name,
			created.Spec.RestartPolicy, created.Spec.ServiceAccountName)
	}
	// Output:
	// Unauthorized
	// pods "web" is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"
	// created default/web: restartPolicy Always, serviceAccountName default
}

// A first look at the store: what the apiserver does to etcd when a pod is
// created, updated by a controller, and updated again by a writer that read
// an old version.

package store_test

import (
	"context"
	"errors"
	"fmt"

	"kubesim/store"
)

func Example() {
	ctx := context.Background()
	s, err := store.Open(ctx, store.Config{}) // a fresh embedded etcd
	if err != nil {
		panic(err)
	}
	defer s.Close()
	const key = "/registry/pods/default/nginx"

	// Creating the pod writes revision 2 (a fresh etcd starts at 1); that
	// number becomes the pod's resourceVersion.
	created, err := s.Create(ctx, key, []byte(`{"status":{"phase":"Pending"}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println("created at revision", created)

	// A watch from the creation's revision replays it, then follows along.
	w := s.Watch(ctx, "/registry/pods/", created)
	defer w.Stop()

	// The kubelet reports the pod running, based on what it read.
	running, err := s.Update(ctx, key, []byte(`{"status":{"phase":"Running"}}`), created)
	if err != nil {
		panic(err)
	}

	// A writer still holding revision 2 loses: the update is a
	// compare-and-swap, and the error hands back the winning value.
	_, err = s.Update(ctx, key, []byte(`{"status":{"phase":"Failed"}}`), created)
	var conflict *store.ConflictError
	if errors.As(err, &conflict) {
		fmt.Printf("conflict: expected revision %d, current is %d: %s\n",
			conflict.Expected, conflict.Current.ModRevision, conflict.Current.Value)
	}

	for seen := int64(0); seen < running; {
		for _, e := range <-w.Events() {
			fmt.Println(e.Type, e.KV.Key, e.Revision, string(e.KV.Value))
			seen = e.Revision
		}
	}

	// Output:
	// created at revision 2
	// conflict: expected revision 2, current is 3: {"status":{"phase":"Running"}}
	// PUT /registry/pods/default/nginx 2 {"status":{"phase":"Pending"}}
	// PUT /registry/pods/default/nginx 3 {"status":{"phase":"Running"}}
}

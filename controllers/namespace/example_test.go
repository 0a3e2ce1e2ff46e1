package namespace_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/namespace"
	"kubesim/internal/testenv"
)

// `kubectl delete namespace demo` only marks the namespace Terminating; the namespace controller
// empties it, then removes its "kubernetes" finalizer, and the apiserver deletes it.
func Example() {
	c, ctx := testenv.Start(testenv.Step, addNamespaceController)
	defer c.Close()
	if _, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}); err != nil {
		panic(err)
	}
	if _, err := c.Kubectl.Create(ctx, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "builder", Namespace: "demo"}}); err != nil {
		panic(err)
	}
	if err := c.Kubectl.Delete(ctx, "namespaces", "", "demo", client.DeleteOptions{}); err != nil {
		panic(err)
	}
	if err := c.Driver.RunIdle(ctx, 10); err != nil {
		panic(err)
	}
	for _, line := range testenv.Story(c, namespace.Name) {
		fmt.Println(line)
	}
	// Output:
	// namespace demo is Terminating: deleted 1 serviceaccounts
	// namespace demo is empty: remove the finalizer "kubernetes" (namespaces/finalize), so the apiserver deletes it
}

package wire_test

import (
	"fmt"

	"kubesim/wire"
)

// A REST call and its in-process form: `GET /api/v1/namespaces/default/pods?labelSelector=app=nginx`
// is this Request; the HTTP front builds exactly this value from the URL, the in-process client builds
// it directly, and both hand it to the same pipeline.
func ExampleRequest() {
	req := wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", LabelSelector: "app=nginx"}
	fmt.Printf("%s %s -n %s -l %s\n", req.Verb, req.Resource, req.Namespace, req.LabelSelector)
	// Output: list pods -n default -l app=nginx
}

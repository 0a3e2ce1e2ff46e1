// request.go: how the trace names a request and an object. The request itself (wire.Request) is
// shared with the client in the leaf package wire, so that no client depends on the apiserver.
package apiserver

import (
	"fmt"

	"kubesim/api"
	"kubesim/wire"
)

// describe is a request as a learner reads it in the trace: "create pods default/nginx-x2k9p".
func describe(r *wire.Request, res *api.Resource) string {
	s := r.Verb + " " + res.GroupResource()
	if r.Subresource != "" {
		s = r.Verb + " " + res.GroupResource() + "/" + r.Subresource
	}
	switch {
	case r.Namespace != "" && r.Name != "":
		s += " " + r.Namespace + "/" + r.Name
	case r.Name != "":
		s += " " + r.Name
	case r.Namespace != "":
		s += " -n " + r.Namespace
	}
	return s
}

// objectPath is how the trace names an object: "deployments/default/nginx", "nodes/node-1".
func objectPath(res *api.Resource, namespace, name string) string {
	switch {
	case name == "" && namespace == "":
		return ""
	case name == "":
		return fmt.Sprintf("%s/%s", res.Name, namespace)
	case namespace == "":
		return fmt.Sprintf("%s/%s", res.Name, name)
	}
	return fmt.Sprintf("%s/%s/%s", res.Name, namespace, name)
}

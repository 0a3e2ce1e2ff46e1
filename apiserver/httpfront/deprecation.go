// deprecation.go: the warning kube-apiserver adds to every request for a deprecated API
// (k8s.io/apiserver pkg/endpoints/deprecation), which kubectl prints before its answer:
//
//	Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice
//
// Interface: deprecationWarnings(res).
package httpfront

import "kubesim/api"

// deprecatedAPIs are the served APIs that Kubernetes 1.34 marks deprecated, by group-resource, with
// the warning deprecation.go words from the type's lifecycle (deprecated in, replaced by).
var deprecatedAPIs = map[string]string{
	"endpoints": "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
}

// deprecationWarnings is the warning of a request for res, if its API is deprecated.
func deprecationWarnings(res *api.Resource) []string {
	if w, ok := deprecatedAPIs[res.GroupResource()]; ok {
		return []string{w}
	}
	return nil
}

// route.go: request info (k8s.io/apiserver/pkg/endpoints/request.RequestInfoFactory): which group,
// version, resource, namespace, name and subresource a URL names.
//
//	/api/v1                                          the core group's resource list
//	/api/v1/nodes/node-1                             a cluster-scoped object
//	/api/v1/pods                                     pods in every namespace
//	/api/v1/namespaces/default/pods/nginx/log        a namespaced object's subresource
//	/apis/apps/v1/namespaces/default/deployments     a group's namespaced collection
//
// /api/v1/namespaces/NAME/status is the namespace's own subresource, not a resource called status
// inside it: Kubernetes resolves the ambiguity the same way.
package httpfront

import (
	"strings"

	"kubesim/api"
)

// route is a parsed URL. res is nil for a group-version's discovery document.
type route struct {
	group, version string
	res            *api.Resource
	namespace      string
	name           string
	subresource    string
}

// parsePath parses a resource URL; anything else is the 404 Status.
func parsePath(path string) (route, error) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var rt route
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		rt.version, parts = parts[1], parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		rt.group, rt.version, parts = parts[1], parts[2], parts[3:]
	default:
		return rt, notFoundPath()
	}
	if !servesGroupVersion(rt.group, rt.version) {
		return rt, notFoundPath()
	}
	for _, p := range parts {
		if p == "" {
			return rt, notFoundPath()
		}
	}
	if len(parts) == 0 {
		return rt, nil
	}
	// namespaces/NS/<resource>/... unless it is the namespace's own subresource.
	if parts[0] == "namespaces" && len(parts) >= 3 && !(len(parts) == 3 && isNamespaceSubresource(parts[2])) {
		rt.namespace, parts = parts[1], parts[2:]
	}
	res, ok := api.ResourceFor(parts[0])
	if !ok || res.Name != parts[0] || res.Group != rt.group || res.Version != rt.version {
		return rt, notFoundPath()
	}
	if rt.namespace != "" && !res.Namespaced {
		return rt, notFoundPath()
	}
	rt.res = res
	switch len(parts) {
	case 1:
	case 2:
		rt.name = parts[1]
	case 3:
		rt.name, rt.subresource = parts[1], parts[2]
		if !res.HasSubresource(rt.subresource) && !isStreamingSubresource(res, rt.subresource) {
			return rt, notFoundPath()
		}
	default:
		return rt, notFoundPath()
	}
	return rt, nil
}

func isNamespaceSubresource(s string) bool {
	res, _ := api.ResourceFor("namespaces")
	return res.HasSubresource(s)
}

// isStreamingSubresource names the pod subresources Kubernetes serves by streaming a process's
// terminal or a port; kubesim answers them, but only to say it does not run processes.
func isStreamingSubresource(res *api.Resource, sub string) bool {
	return res.Name == "pods" && (sub == "exec" || sub == "attach" || sub == "portforward")
}

// servesGroupVersion reports whether any registered resource lives in group/version.
func servesGroupVersion(group, version string) bool {
	for _, r := range api.Resources() {
		if r.Group == group && r.Version == version {
			return true
		}
	}
	return false
}

package httpfront

import (
	"strings"
	"testing"
)

// Any path parses to a route or to the 404 Status, never a panic; a route names a served resource in
// the group and version of its URL.
func FuzzParsePath(f *testing.F) {
	for _, seed := range []string{"/api/v1", "/api/v1/pods", "/api/v1/namespaces/default/pods/web/log",
		"/api/v1/namespaces/kube-system/status", "/apis/apps/v1/namespaces/default/deployments/web/scale",
		"/apis//v1", "/api/v1/namespaces//pods", "/apis/apps/v1/nodes", "//", "/api/v1/namespaces/x/pods/y/z/w"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, path string) {
		rt, err := parsePath(path)
		if err != nil || rt.res == nil {
			return
		}
		if rt.res.Group != rt.group || rt.res.Version != rt.version || (rt.namespace != "" && !rt.res.Namespaced) {
			t.Errorf("%q parsed to %+v", path, rt)
		}
		if strings.Contains(path, "//") {
			t.Errorf("%q has an empty segment but parsed to %+v", path, rt)
		}
	})
}

// The namespace's own subresources are not resources inside it.
func TestParsePathNamespaceSubresource(t *testing.T) {
	for path, want := range map[string]string{
		"/api/v1/namespaces/team-a/status":               "namespaces  team-a status",
		"/api/v1/namespaces/team-a/finalize":             "namespaces  team-a finalize",
		"/api/v1/namespaces/team-a/pods":                 "pods team-a  ",
		"/api/v1/namespaces/team-a/pods/web/log":         "pods team-a web log",
		"/apis/apps/v1/namespaces/team-a/deployments/db": "deployments team-a db ",
	} {
		rt, err := parsePath(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := strings.Join([]string{rt.res.Name, rt.namespace, rt.name, rt.subresource}, " "); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}

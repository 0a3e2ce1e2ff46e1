// discovery.go: what the server serves, so that kubectl can resolve `deploy` to deployments.apps and
// know which verbs it may use (k8s.io/apiserver/pkg/endpoints/discovery). Two forms:
//
//	aggregated   GET /api and /apis with Accept ...;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList:
//	             every group, version and resource in two documents (kubectl's first choice since 1.30)
//	legacy       GET /api (APIVersions), /apis (APIGroupList), /apis/GROUP (APIGroup), then /api/v1
//	             and /apis/GROUP/VERSION (APIResourceList) one group-version at a time
//
// Both are built from the scheme (api.Resources()), so they list exactly what the apiserver serves.
package httpfront

import (
	"net/http"
	"sort"
	"strings"

	"kubesim/api"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// aggregatedContentType is the exact media type of an aggregated discovery answer; kubectl falls back
// to the legacy documents when the answer carries another.
const aggregatedContentType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// objectVerbs are the verbs every resource serves. deletecollection is not among them: kubesim does
// not serve it.
var objectVerbs = []string{"create", "delete", "get", "list", "patch", "update", "watch"}

// verbsOf is what discovery says a resource serves: only create for the reviews, which are
// questions, never stored.
func verbsOf(res *api.Resource) []string {
	if res.Group == api.AuthorizationGroupName || res.Group == api.AuthenticationGroupName {
		return []string{"create"}
	}
	return objectVerbs
}

// inCategoryAll lists the resources `kubectl get all` shows.
var inCategoryAll = map[string]bool{"pods": true, "services": true, "deployments": true, "replicasets": true, "daemonsets": true}

// subresourceKind is the kind a subresource reads and writes: the parent's own for status, else its own.
func subresourceKind(res *api.Resource, sub string) metav1.GroupVersionKind {
	switch sub {
	case "scale":
		return metav1.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	case "binding":
		return metav1.GroupVersionKind{Version: "v1", Kind: "Binding"}
	case "eviction":
		return metav1.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"}
	}
	return metav1.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind}
}

func subresourceVerbs(sub string) []string {
	switch sub {
	case "binding", "eviction":
		return []string{"create"}
	case "log":
		return []string{"get"}
	case "finalize":
		return []string{"update"}
	}
	return []string{"get", "patch", "update"}
}

func categories(res *api.Resource) []string {
	if inCategoryAll[res.Name] {
		return []string{"all"}
	}
	return nil
}

// groups lists the served groups in discovery order: the core group first, then by name.
func groups() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range api.Resources() {
		if !seen[r.Group] {
			seen[r.Group] = true
			out = append(out, r.Group)
		}
	}
	sort.Strings(out) // "" sorts first
	return out
}

// versionsOf lists the versions served for group (kubesim serves one, v1, per group).
func versionsOf(group string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range api.Resources() {
		if r.Group == group && !seen[r.Version] {
			seen[r.Version] = true
			out = append(out, r.Version)
		}
	}
	sort.Strings(out)
	return out
}

func resourcesOf(group, version string) []*api.Resource {
	var out []*api.Resource
	for _, r := range api.Resources() {
		if r.Group == group && r.Version == version {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// discoveryRoot answers /api and /apis in the form the Accept header prefers.
func (h *Handler) discoveryRoot(w http.ResponseWriter, r *http.Request) {
	core := strings.TrimSuffix(r.URL.Path, "/") == "/api"
	if wantsAggregated(r) {
		writeAggregated(w, aggregated(core))
		return
	}
	if core {
		writeJSON(w, http.StatusOK, &metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: versionsOf(""),
			ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}}})
		return
	}
	list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
	for _, g := range groups() {
		if g != "" {
			list.Groups = append(list.Groups, legacyGroup(g))
		}
	}
	writeJSON(w, http.StatusOK, list)
}

// legacyGroup is a named group's entry in the legacy discovery: its versions, the first preferred.
func legacyGroup(g string) metav1.APIGroup {
	group := metav1.APIGroup{TypeMeta: metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}, Name: g}
	for _, v := range versionsOf(g) {
		group.Versions = append(group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: g + "/" + v, Version: v})
	}
	group.PreferredVersion = group.Versions[0]
	return group
}

// apiGroup answers /apis/GROUP with the group's APIGroup document.
func (h *Handler) apiGroup(w http.ResponseWriter, g string) {
	if len(versionsOf(g)) == 0 || g == "" {
		writeError(w, notFoundPath())
		return
	}
	writeJSON(w, http.StatusOK, legacyGroup(g))
}

func wantsAggregated(r *http.Request) bool {
	for _, accept := range strings.Split(r.Header.Get("Accept"), ",") {
		if strings.Contains(accept, "as=APIGroupDiscoveryList") && strings.Contains(accept, "v=v2") && !strings.Contains(accept, "v=v2beta1") {
			return true
		}
	}
	return false
}

func writeAggregated(w http.ResponseWriter, doc *apidiscoveryv2.APIGroupDiscoveryList) {
	w.Header().Set("Content-Type", aggregatedContentType)
	writeJSON(w, http.StatusOK, doc)
}

// aggregated is the aggregated discovery document of the core group (core) or of every named group.
func aggregated(core bool) *apidiscoveryv2.APIGroupDiscoveryList {
	list := &apidiscoveryv2.APIGroupDiscoveryList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/v2"}}
	for _, g := range groups() {
		if (g == "") != core {
			continue
		}
		group := apidiscoveryv2.APIGroupDiscovery{ObjectMeta: metav1.ObjectMeta{Name: g}}
		for _, v := range versionsOf(g) {
			version := apidiscoveryv2.APIVersionDiscovery{Version: v, Freshness: apidiscoveryv2.DiscoveryFreshnessCurrent}
			for _, res := range resourcesOf(g, v) {
				scope := apidiscoveryv2.ScopeCluster
				if res.Namespaced {
					scope = apidiscoveryv2.ScopeNamespace
				}
				d := apidiscoveryv2.APIResourceDiscovery{Resource: res.Name, SingularResource: res.Singular, Scope: scope,
					ResponseKind: &metav1.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind},
					Verbs:        verbsOf(res), ShortNames: res.ShortNames, Categories: categories(res)}
				for _, sub := range res.Subresources {
					kind := subresourceKind(res, sub)
					d.Subresources = append(d.Subresources, apidiscoveryv2.APISubresourceDiscovery{Subresource: sub,
						ResponseKind: &kind, Verbs: subresourceVerbs(sub)})
				}
				version.Resources = append(version.Resources, d)
			}
			group.Versions = append(group.Versions, version)
		}
		list.Items = append(list.Items, group)
	}
	return list
}

// groupVersion answers /api/v1 and /apis/GROUP/VERSION with the legacy APIResourceList.
func (h *Handler) groupVersion(w http.ResponseWriter, rt route) {
	gv := rt.version
	if rt.group != "" {
		gv = rt.group + "/" + rt.version
	}
	list := &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv}
	for _, res := range resourcesOf(rt.group, rt.version) {
		list.APIResources = append(list.APIResources, metav1.APIResource{Name: res.Name, SingularName: res.Singular,
			Namespaced: res.Namespaced, Kind: res.Kind, Verbs: verbsOf(res), ShortNames: res.ShortNames, Categories: categories(res)})
		for _, sub := range res.Subresources {
			kind := subresourceKind(res, sub)
			list.APIResources = append(list.APIResources, metav1.APIResource{Name: res.Name + "/" + sub,
				Namespaced: res.Namespaced, Group: kind.Group, Version: kind.Version, Kind: kind.Kind, Verbs: subresourceVerbs(sub)})
		}
	}
	writeJSON(w, http.StatusOK, list)
}

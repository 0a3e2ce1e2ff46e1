// scheme.go: the registry of kinds (runtime.Scheme and the RESTMapper in one): for every resource, its
// group, version, kind, plural and short names, whether it is namespaced, which subresources it has, and
// how to make an empty object of it.
package api

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Resource describes one kind of object the apiserver serves.
type Resource struct {
	Group        string   // "" for the core group, "apps", "rbac.authorization.k8s.io", ...
	Version      string   // "v1"
	Kind         string   // "Deployment"
	Name         string   // plural resource name: "deployments"
	Singular     string   // "deployment"
	ShortNames   []string // "deploy"
	Namespaced   bool     // false for Node, Namespace, ClusterRole, ClusterRoleBinding
	Subresources []string // "status", "scale", "binding", "eviction"
	New          func() Object
}

// APIVersion is "v1" for the core group, else "group/version".
func (r *Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// GroupResource is how Kubernetes names the resource in messages and RBAC: "pods", "deployments.apps".
func (r *Resource) GroupResource() string {
	if r.Group == "" {
		return r.Name
	}
	return r.Name + "." + r.Group
}

// HasSubresource reports whether sub ("status", "scale", ...) is served for this resource.
func (r *Resource) HasSubresource(sub string) bool {
	for _, s := range r.Subresources {
		if s == sub {
			return true
		}
	}
	return false
}

// NewObject returns an empty object of this kind with its TypeMeta filled in.
func (r *Resource) NewObject() Object {
	obj := r.New()
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = r.APIVersion(), r.Kind
	return obj
}

var (
	byName []*Resource              // sorted by GroupResource, for stable listings
	lookup = map[string]*Resource{} // plural, singular, short names, "plural.group", lower-case kind
	byKind = map[string]*Resource{} // "apiVersion/Kind"
	byType = map[reflect.Type]*Resource{}
)

// register adds r to the scheme. Called from init in types files; a clash is a programming error.
func register(r *Resource) {
	names := append([]string{r.Name, r.Singular, strings.ToLower(r.Kind), r.GroupResource()}, r.ShortNames...)
	for _, n := range names {
		if prev, ok := lookup[n]; ok && prev != r {
			panic(fmt.Sprintf("api: resource name %q registered twice", n))
		}
		lookup[n] = r
	}
	byKind[r.APIVersion()+"/"+r.Kind] = r
	byType[reflect.TypeOf(r.New())] = r
	byName = append(byName, r)
	sort.Slice(byName, func(i, j int) bool { return byName[i].GroupResource() < byName[j].GroupResource() })
}

// ResourceFor finds a resource the way kubectl resolves a name on its command line: by plural,
// singular, short name or "plural.group" ("pods", "pod", "po", "deployments.apps").
func ResourceFor(name string) (*Resource, bool) {
	r, ok := lookup[strings.ToLower(name)]
	return r, ok
}

// ResourceForKind finds the resource of a manifest's apiVersion and kind.
func ResourceForKind(apiVersion, kind string) (*Resource, bool) {
	r, ok := byKind[apiVersion+"/"+kind]
	return r, ok
}

// ResourceOf finds the resource of a typed object by its Go type.
func ResourceOf(obj Object) (*Resource, bool) {
	r, ok := byType[reflect.TypeOf(obj)]
	return r, ok
}

// Resources lists every registered resource, sorted by group-qualified name.
func Resources() []*Resource {
	return append([]*Resource(nil), byName...)
}

// graph.go: the collector's view of ownership. Kubernetes keeps an explicit graph (uidToNode, each
// node with its owners and dependents); kubesim gets the same answers from its informers:
//
//	kind                 one watched resource (Deployments, DaemonSets, ReplicaSets, Pods)
//	gc.lookup(ref, ns)   the owner an ownerReference points at, if the cache has it (same uid)
//	gc.dependents(uid)   every cached object with an ownerReference to uid (the ownerUID index)
//	objectPath(obj)      "replicasets/default/nginx-6d4cf56db6", the queue key and trace name
package garbagecollector

import (
	"sort"
	"strings"

	"kubesim/api"
	"kubesim/client"
)

// indexOwnerUID indexes every object by the uids its ownerReferences point at, so that the
// dependents of an owner are one lookup away.
const indexOwnerUID = "ownerUID"

// kind is one watched resource as the collector sees it, whatever its Go type.
type kind interface {
	resource() *api.Resource
	handle() client.InformerHandle
	get(key string) (api.Object, bool)
	dependentsOf(uid string) []api.Object
}

// watched adapts a typed informer to kind.
type watched[T any, PT client.ObjectPtr[T]] struct {
	res *api.Resource
	inf *client.Informer[T, PT]
}

func (w watched[T, PT]) resource() *api.Resource       { return w.res }
func (w watched[T, PT]) handle() client.InformerHandle { return w.inf }

func (w watched[T, PT]) get(key string) (api.Object, bool) {
	obj, ok := w.inf.Get(key)
	if !ok {
		return nil, false
	}
	return obj, true
}

func (w watched[T, PT]) dependentsOf(uid string) []api.Object {
	var out []api.Object
	for _, obj := range w.inf.ByIndex(indexOwnerUID, uid) {
		out = append(out, obj)
	}
	return out
}

// watch takes the shared informer for T, indexes it by owner uid and sends its changes to gc.
func watch[T any, PT client.ObjectPtr[T]](gc *GarbageCollector, informers *client.InformerFactory) kind {
	inf := client.InformerFor[T, PT](informers, client.FactoryOptions{})
	inf.AddIndexer(indexOwnerUID, func(obj PT) []string {
		var uids []string
		for _, ref := range obj.GetObjectMeta().OwnerReferences {
			uids = append(uids, ref.UID)
		}
		return uids
	})
	inf.AddHandler(client.Handler[PT]{
		OnAdd:    func(obj PT) { gc.onChange(obj) },
		OnUpdate: func(_, obj PT) { gc.onChange(obj) },
		OnDelete: func(obj PT) { gc.onDelete(obj) },
	})
	return watched[T, PT]{res: client.For[T, PT](gc.client).Info(), inf: inf}
}

// kindOf finds the watched kind serving a resource name, or nil.
func (gc *GarbageCollector) kindOf(resource string) kind {
	for _, k := range gc.kinds {
		if k.resource().Name == resource {
			return k
		}
	}
	return nil
}

// lookup returns the cached owner an ownerReference of an object in namespace points at, or nil if
// the cache has no object of that name with that uid (or does not watch its kind).
func (gc *GarbageCollector) lookup(ref api.OwnerReference, namespace string) api.Object {
	res, ok := api.ResourceForKind(ref.APIVersion, ref.Kind)
	if !ok {
		return nil
	}
	k := gc.kindOf(res.Name)
	if k == nil {
		return nil
	}
	key := ref.Name
	if res.Namespaced {
		key = namespace + "/" + ref.Name
	}
	obj, ok := k.get(key)
	if !ok || obj.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return obj
}

// dependents lists every cached object that names uid as an owner, in kind order then by key.
func (gc *GarbageCollector) dependents(uid string) []api.Object {
	var out []api.Object
	for _, k := range gc.kinds {
		out = append(out, k.dependentsOf(uid)...)
	}
	return out
}

// objectPath names an object as the queue and the trace do: "pods/default/nginx-6d4cf56db6-x2k9p".
func objectPath(obj api.Object) string {
	res, _ := api.ResourceOf(obj)
	m := obj.GetObjectMeta()
	if m.Namespace == "" {
		return res.Name + "/" + m.Name
	}
	return res.Name + "/" + m.Namespace + "/" + m.Name
}

// refPath names the object an ownerReference points at, in the same form.
func refPath(ref api.OwnerReference, namespace string) string {
	res, ok := api.ResourceForKind(ref.APIVersion, ref.Kind)
	if !ok {
		return strings.ToLower(ref.Kind) + "/" + ref.Name
	}
	if !res.Namespaced {
		return res.Name + "/" + ref.Name
	}
	return res.Name + "/" + namespace + "/" + ref.Name
}

// splitPath is objectPath backwards: resource, namespace, name.
func splitPath(path string) (resource, namespace, name string) {
	parts := strings.SplitN(path, "/", 3)
	switch len(parts) {
	case 3:
		return parts[0], parts[1], parts[2]
	case 2:
		return parts[0], "", parts[1]
	}
	return path, "", ""
}

// paths names objects for a trace line, sorted.
func paths(objs []api.Object) []string {
	out := make([]string, 0, len(objs))
	for _, o := range objs {
		out = append(out, objectPath(o))
	}
	sort.Strings(out)
	return out
}

// get.go: `kubectl get`, one object by name or a list narrowed by namespace and label selector. The
// objects come back as the apiserver sent them; printing them as a table is the caller's business.
//
//	Get(ctx, resource, namespace, name) (api.Object, error)
//	List(ctx, resource, namespace, labelSelector) ([]api.Object, error)
package kubectl

import (
	"context"

	"kubesim/api"
	"kubesim/wire"
)

// Get reads one object (`kubectl get RESOURCE NAME -n NAMESPACE`). resource is any name kubectl
// accepts: plural, singular, short name or "plural.group".
func (k *Kubectl) Get(ctx context.Context, resource, namespace, name string) (api.Object, error) {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return nil, k.Report(unknownResource(resource))
	}
	k.say("request", objectPath(res.Name, namespace, name), "GET %s %s", res.GroupResource(), namespaced(namespace, name))
	resp, err := k.client.Do(ctx, &wire.Request{Verb: wire.VerbGet, Resource: res.Name, Namespace: namespace, Name: name})
	if err != nil {
		return nil, k.Report(err)
	}
	return resp.Object, nil
}

// List lists objects (`kubectl get RESOURCE -n NAMESPACE -l SELECTOR`; "" namespace is
// --all-namespaces).
func (k *Kubectl) List(ctx context.Context, resource, namespace, labelSelector string) ([]api.Object, error) {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return nil, k.Report(unknownResource(resource))
	}
	what := res.GroupResource()
	if namespace != "" {
		what += " -n " + namespace
	}
	if labelSelector != "" {
		what += " -l " + labelSelector
	}
	k.say("request", objectPath(res.Name, namespace, ""), "LIST %s", what)
	resp, err := k.client.Do(ctx, &wire.Request{Verb: wire.VerbList, Resource: res.Name, Namespace: namespace, LabelSelector: labelSelector})
	if err != nil {
		return nil, k.Report(err)
	}
	return resp.List.Items, nil
}

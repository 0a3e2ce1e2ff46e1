// delete.go: `kubectl delete RESOURCE NAME`, with --grace-period and --cascade
// (background, foreground, orphan) as DeleteOptions.
//
//	Delete(ctx, resource, namespace, name, opts) error
package kubectl

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/wire"
)

// Delete deletes one object. The apiserver may only mark it (a pod's grace period, a finalizer):
// kubectl returns once the request is accepted, as `kubectl delete --wait=false` does.
func (k *Kubectl) Delete(ctx context.Context, resource, namespace, name string, opts client.DeleteOptions) error {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return k.Report(unknownResource(resource))
	}
	k.say("request", objectPath(res.Name, namespace, name), "DELETE %s %s", res.GroupResource(), namespaced(namespace, name))
	_, err := k.client.Do(ctx, &wire.Request{Verb: wire.VerbDelete, Resource: res.Name, Namespace: namespace, Name: name,
		GracePeriodSeconds: opts.GracePeriodSeconds, PropagationPolicy: opts.PropagationPolicy})
	return k.Report(err)
}

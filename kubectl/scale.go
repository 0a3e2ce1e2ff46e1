// scale.go: `kubectl scale deployment/NAME --replicas=N`. kubectl does not send the whole object: it
// sends a merge patch of spec.replicas to the scale subresource (k8s.io/kubectl's ScaleSimple, when
// no --resource-version or --current-replicas is given), which the apiserver applies to the object as
// it finds it, so it never races with a controller writing the rest of it.
//
//	Scale(ctx, resource, namespace, name, replicas) error
package kubectl

import (
	"context"

	"kubesim/api"
)

// Scale sets replicas through the scale subresource of a Deployment or ReplicaSet.
func (k *Kubectl) Scale(ctx context.Context, resource, namespace, name string, replicas int32) error {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return k.Report(unknownResource(resource))
	}
	k.say("request", objectPath(res.Name, namespace, name), "PATCH %s/scale %s/%s (replicas %d)", res.GroupResource(), namespace, name, replicas)
	_, err := k.client.PatchScale(ctx, res.Name, namespace, name, replicas)
	return k.Report(err)
}

// scale.go: `kubectl scale deployment/NAME --replicas=N`. kubectl does not send the whole object: it
// writes the scale subresource, so it never races with a controller writing the rest of it.
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
	k.say("request", objectPath(res.Name, namespace, name), "PUT %s/scale %s/%s (replicas %d)", res.GroupResource(), namespace, name, replicas)
	sc, err := k.client.GetScale(ctx, res.Name, namespace, name)
	if err != nil {
		return k.Report(err)
	}
	sc.Spec.Replicas = replicas
	_, err = k.client.UpdateScale(ctx, res.Name, sc)
	return k.Report(err)
}

// setimage.go: `kubectl set image deployment/NAME CONTAINER=IMAGE`. A new image is a new pod
// template, so the Deployment controller starts a rolling update.
//
//	SetImage(ctx, namespace, name, container, image) error
//
// kubesim simplification: kubectl sends a strategic merge patch; here kubectl reads the Deployment
// and updates it, retrying on 409 Conflict, which ends in the same object.
package kubectl

import (
	"context"
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// SetImage changes a container's image in a Deployment.
func (k *Kubectl) SetImage(ctx context.Context, namespace, name, container, image string) error {
	k.say("request", objectPath("deployments", namespace, name), "kubectl set image deployment/%s %s=%s", name, container, image)
	deployments := client.For[api.Deployment](k.client)
	return k.Report(client.RetryOnConflict(ctx, k.cfg.Clock, client.DefaultRetry, func() error {
		d, err := deployments.Get(ctx, namespace, name)
		if err != nil {
			return err
		}
		found := false
		for i := range d.Spec.Template.Spec.Containers {
			if d.Spec.Template.Spec.Containers[i].Name == container {
				d.Spec.Template.Spec.Containers[i].Image = image
				found = true
			}
		}
		if !found {
			return apierrors.NewBadRequest(fmt.Sprintf("unable to find container named %q", container))
		}
		_, err = deployments.Update(ctx, d)
		return err
	}))
}

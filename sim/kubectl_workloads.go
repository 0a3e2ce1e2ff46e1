// kubectl_workloads.go: the kubectl verbs that change workloads and nodes in the articles' operations
// sections: set image (a rolling update), rollout undo, cordon and drain.
package sim

import (
	"context"
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/deployment"
)

// SetImage changes a container's image in a Deployment (`kubectl set image deployment/NAME
// CONTAINER=IMAGE`): a new pod template, so the Deployment controller starts a rolling update.
func (k *Kubectl) SetImage(ctx context.Context, namespace, name, container, image string) error {
	k.say("request", objectPath("deployments", namespace, name), "kubectl set image deployment/%s %s=%s", name, container, image)
	return k.report(client.RetryOnConflict(ctx, k.c.Clock, client.DefaultRetry, func() error {
		d, err := client.For[api.Deployment](k.client).Get(ctx, namespace, name)
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
		_, err = client.For[api.Deployment](k.client).Update(ctx, d)
		return err
	}))
}

// RolloutUndo brings back the pod template of an earlier revision (`kubectl rollout undo
// deployment/NAME [--to-revision=N]`; 0 means the previous one).
func (k *Kubectl) RolloutUndo(ctx context.Context, namespace, name string, toRevision int64) error {
	if toRevision > 0 {
		k.say("request", objectPath("deployments", namespace, name), "kubectl rollout undo deployment/%s --to-revision=%d", name, toRevision)
	} else {
		k.say("request", objectPath("deployments", namespace, name), "kubectl rollout undo deployment/%s", name)
	}
	return k.report(deployment.Rollback(ctx, k.client, namespace, name, toRevision))
}

// Cordon marks a node unschedulable (`kubectl cordon NODE`); Uncordon undoes it.
func (k *Kubectl) Cordon(ctx context.Context, node string) error {
	return k.setUnschedulable(ctx, node, true)
}

// Uncordon makes a node schedulable again (`kubectl uncordon NODE`).
func (k *Kubectl) Uncordon(ctx context.Context, node string) error {
	return k.setUnschedulable(ctx, node, false)
}

func (k *Kubectl) setUnschedulable(ctx context.Context, node string, on bool) error {
	verb := "cordon"
	if !on {
		verb = "uncordon"
	}
	k.say("request", objectPath("nodes", "", node), "kubectl %s %s", verb, node)
	return k.report(client.RetryOnConflict(ctx, k.c.Clock, client.DefaultRetry, func() error {
		n, err := client.For[api.Node](k.client).Get(ctx, "", node)
		if err != nil {
			return err
		}
		n.Spec.Unschedulable = on
		_, err = client.For[api.Node](k.client).Update(ctx, n)
		return err
	}))
}

// Drain cordons a node and evicts its pods through the Eviction API (`kubectl drain NODE
// --ignore-daemonsets`): pods owned by a DaemonSet stay, as the flag says; every other pod is evicted
// and, if a controller owns it, replaced elsewhere. It returns the pods it evicted.
func (k *Kubectl) Drain(ctx context.Context, node string) ([]string, error) {
	if err := k.Cordon(ctx, node); err != nil {
		return nil, err
	}
	k.say("request", objectPath("nodes", "", node), "kubectl drain %s --ignore-daemonsets", node)
	pods, _, err := client.For[api.Pod](k.client).List(ctx, "", client.ListOptions{FieldSelector: "spec.nodeName=" + node})
	if err != nil {
		return nil, k.report(err)
	}
	var evicted []string
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" {
			k.say("drain", objectPath("pods", p.Namespace, p.Name), "ignoring DaemonSet-managed pod %s/%s", p.Namespace, p.Name)
			continue
		}
		k.say("request", objectPath("pods", p.Namespace, p.Name), "evicting pod %s/%s", p.Namespace, p.Name)
		if err := k.client.Evict(ctx, p.Namespace, p.Name, nil); err != nil {
			return evicted, k.report(err)
		}
		evicted = append(evicted, p.Namespace+"/"+p.Name)
	}
	return evicted, nil
}

// rollback.go: `kubectl rollout undo`. There is no rollback API in apps/v1: kubectl finds the
// ReplicaSet of the wanted revision and copies its pod template (and its annotations) back into the
// Deployment. To the Deployment controller that is just a template change, which it rolls out like
// any other, except that the ReplicaSet for that template already exists: it becomes the new
// ReplicaSet again, under the next revision number.
//
//	Rollback(ctx, client, namespace, name, toRevision) error
package deployment

import (
	"context"
	"errors"
	"fmt"

	"kubesim/api"
	"kubesim/client"
)

// ErrPausedRollback is kubectl's refusal to roll back a paused Deployment.
var ErrPausedRollback = errors.New("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")

// Rollback does what `kubectl rollout undo deployment/NAME [--to-revision=N]` does, through c (the
// caller's identity): toRevision 0 means the revision before the current one. If the Deployment's
// template already is that revision's, it changes nothing and returns nil, as kubectl reports
// "skipped rollback (current template already matches revision N)".
func Rollback(ctx context.Context, c *client.Client, namespace, name string, toRevision int64) error {
	deployments := client.For[api.Deployment](c)
	d, err := deployments.Get(ctx, namespace, name)
	if err != nil {
		return err
	}
	if d.Spec.Paused {
		return ErrPausedRollback
	}
	all, _, err := client.For[api.ReplicaSet](c).List(ctx, namespace, client.ListOptions{LabelSelector: d.Spec.Selector.String()})
	if err != nil {
		return err
	}
	var owned []*api.ReplicaSet
	for _, rs := range all {
		if ref := rs.ControllerRef(); ref != nil && ref.UID == d.UID {
			owned = append(owned, rs)
		}
	}
	rs, err := replicaSetForRevision(owned, name, toRevision)
	if err != nil {
		return err
	}
	if equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
		return nil
	}
	// The template without the pod-template-hash label, which belongs to the ReplicaSet, not the
	// Deployment; and the ReplicaSet's annotations (kubernetes.io/change-cause, ...) replace the
	// Deployment's, except those the controller manages.
	template := rs.Spec.Template
	delete(template.Labels, api.DefaultDeploymentUniqueLabelKey)
	annotations := map[string]string{}
	for k, v := range d.Annotations {
		if annotationsNotCopied[k] {
			annotations[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !annotationsNotCopied[k] {
			annotations[k] = v
		}
	}
	d.Spec.Template = template
	d.Annotations = annotations
	_, err = deployments.Update(ctx, d)
	return err
}

// replicaSetForRevision finds the ReplicaSet of toRevision, or of the revision before the latest.
func replicaSetForRevision(rss []*api.ReplicaSet, name string, toRevision int64) (*api.ReplicaSet, error) {
	if toRevision > 0 {
		for _, rs := range rss {
			if revision(rs) == toRevision {
				return rs, nil
			}
		}
		return nil, fmt.Errorf("unable to find specified revision %d in history", toRevision)
	}
	var latest, previous *api.ReplicaSet
	for _, rs := range rss {
		switch {
		case latest == nil || revision(rs) > revision(latest):
			previous, latest = latest, rs
		case previous == nil || revision(rs) > revision(previous):
			previous = rs
		}
	}
	if previous == nil {
		return nil, fmt.Errorf("no rollout history found for deployment %q", name)
	}
	return previous, nil
}

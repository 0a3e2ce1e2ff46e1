// rollback.go: `kubectl rollout undo deployment/NAME [--to-revision=N]`. There is no rollback API in
// apps/v1 (the deployments/rollback subresource of extensions/v1beta1 went with that group, and
// kubectl has rolled back by itself since Kubernetes 1.13, kubernetes/kubernetes#70039): kubectl
// finds the ReplicaSet of the wanted revision and copies its pod template, and its annotations, back
// into the Deployment. To the Deployment controller that is just a template change, which it rolls
// out like any other, except that the ReplicaSet for that template already exists: it becomes the
// new ReplicaSet again, under the next revision number.
//
//	RolloutUndo(ctx, namespace, name, toRevision) error
//
// kubesim simplification: kubectl sends the change as a JSON patch (replace /spec/template and
// /metadata/annotations); here it updates the Deployment, reading it again on 409 Conflict, which ends
// in the same object.
package kubectl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"kubesim/api"
	"kubesim/client"
)

// ErrPausedRollback is kubectl's refusal to roll back a paused Deployment.
var ErrPausedRollback = errors.New("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")

// annotationsToSkip are the Deployment's annotations that belong to the Deployment and its
// controller, not to a revision: a rollback keeps the Deployment's own and never copies the
// ReplicaSet's.
var annotationsToSkip = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
	api.RevisionAnnotation:                             true,
	"deployment.kubernetes.io/revision-history":        true,
	"deployment.kubernetes.io/desired-replicas":        true,
	"deployment.kubernetes.io/max-replicas":            true,
	"deprecated.deployment.rollback.to":                true,
}

// RolloutUndo brings back the pod template of revision toRevision, or of the revision before the
// current one if toRevision is 0. If the Deployment's template already is that revision's, it changes
// nothing (kubectl prints "skipped rollback (current template already matches revision N)").
func (k *Kubectl) RolloutUndo(ctx context.Context, namespace, name string, toRevision int64) error {
	if toRevision > 0 {
		k.say("request", objectPath("deployments", namespace, name), "kubectl rollout undo deployment/%s --to-revision=%d", name, toRevision)
	} else {
		k.say("request", objectPath("deployments", namespace, name), "kubectl rollout undo deployment/%s", name)
	}
	deployments := client.For[api.Deployment](k.client)
	return k.Report(client.RetryOnConflict(ctx, k.cfg.Clock, client.DefaultRetry, func() error {
		d, err := deployments.Get(ctx, namespace, name)
		if err != nil {
			return err
		}
		if d.Spec.Paused {
			return ErrPausedRollback
		}
		rss, err := k.replicaSetsOf(ctx, d)
		if err != nil {
			return err
		}
		rs, err := revisionToRestore(rss, name, toRevision)
		if err != nil {
			return err
		}
		// The pod-template-hash label belongs to the ReplicaSet, not to the Deployment's template.
		template := rs.Spec.Template
		delete(template.Labels, api.DefaultDeploymentUniqueLabelKey)
		if sameTemplate(&template, &d.Spec.Template) {
			return nil
		}
		annotations := map[string]string{}
		for key, v := range d.Annotations {
			if annotationsToSkip[key] {
				annotations[key] = v
			}
		}
		for key, v := range rs.Annotations {
			if !annotationsToSkip[key] {
				annotations[key] = v
			}
		}
		d.Spec.Template, d.Annotations = template, annotations
		_, err = deployments.Update(ctx, d)
		return err
	}))
}

// revisionToRestore finds the ReplicaSet of toRevision, or, for 0, the one before the latest. rss is
// ordered oldest revision first.
func revisionToRestore(rss []*api.ReplicaSet, name string, toRevision int64) (*api.ReplicaSet, error) {
	if toRevision == 0 {
		if len(rss) < 2 {
			return nil, fmt.Errorf("no rollout history found for deployment %q", name)
		}
		return rss[len(rss)-2], nil
	}
	for _, rs := range rss {
		if revisionOf(rs) == toRevision {
			return rs, nil
		}
	}
	return nil, fmt.Errorf("unable to find specified revision %d in history", toRevision)
}

// sameTemplate compares two pod templates field by field, through their JSON, so that a nil map and
// an empty one are the same template, as Kubernetes' semantic equality has it.
func sameTemplate(a, b *api.PodTemplateSpec) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

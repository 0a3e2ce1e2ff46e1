// reconcile.go: Reconcile, the Deployment controller's one unit of work (syncDeployment in
// Kubernetes). It finds the Deployment's ReplicaSets, then takes exactly one of these paths:
//
//	being deleted        only refresh status
//	paused               no rollout: apply scaling, prune history, refresh status (sync)
//	replicas changed     scale the ReplicaSets, proportionally during a rollout (sync)
//	Recreate             old pods all go, then new ones come (rolloutRecreate)
//	RollingUpdate        new up, old down, within maxSurge/maxUnavailable (rolloutRolling)
//
// Like every controller, it is level-based: it never asks what changed, only how the Deployment and
// its ReplicaSets look now.
package deployment

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/client"
	"kubesim/controllers/internal"
)

// Reconcile brings one Deployment ("namespace/name") one step closer to its spec and writes its
// status. It reads only the informer caches and writes only through the apiserver.
func (c *Controller) Reconcile(ctx context.Context, key string) error {
	cached, ok := c.dInformer.Get(key)
	if !ok {
		c.tracer.Detail("reconcile", "deployments/"+key, "", "reconcile %s: the Deployment is gone", key)
		return nil
	}
	// Everything below works on private copies: objects in the cache are shared and never modified.
	d := api.DeepCopy(cached)
	selector, err := d.Spec.Selector.AsSelector()
	if err != nil {
		c.tracer.Record("reconcile", "deployments/"+key, d.ResourceVersion, "reconcile %s: invalid selector: %v", key, err)
		return nil
	}
	if selector.Empty() {
		c.events.Event(ctx, d, client.EventWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			_, err := c.deployments.UpdateStatus(ctx, d)
			return err
		}
		return nil
	}

	rsList, err := c.getReplicaSetsForDeployment(ctx, d, selector)
	if err != nil {
		return err
	}
	c.tracer.Detail("reconcile", "deployments/"+key, d.ResourceVersion, "reconcile %s: %s, %d replicas, %d ReplicaSets",
		key, d.Spec.Strategy.Type, replicasOf(d), len(rsList))
	if d.DeletionTimestamp != nil {
		return c.syncStatusOnly(ctx, d, rsList)
	}
	if err := c.checkPausedConditions(ctx, d); err != nil {
		return err
	}
	if d.Spec.Paused {
		return c.sync(ctx, d, rsList)
	}
	scaling, err := c.isScalingEvent(ctx, d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		return c.sync(ctx, d, rsList)
	}
	switch d.Spec.Strategy.Type {
	case api.RecreateDeploymentStrategyType:
		return c.rolloutRecreate(ctx, d, rsList, c.getPodMap(rsList))
	case api.RollingUpdateDeploymentStrategyType:
		return c.rolloutRolling(ctx, d, rsList)
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", d.Spec.Strategy.Type)
}

// getReplicaSetsForDeployment returns private copies of the ReplicaSets the Deployment controls,
// adopting matching orphans and releasing owned ones whose labels no longer match its selector.
func (c *Controller) getReplicaSetsForDeployment(ctx context.Context, d *api.Deployment, selector labels.Selector) ([]*api.ReplicaSet, error) {
	candidates := append(c.rsInformer.ByIndex(internal.IndexControllerUID, d.UID),
		c.rsInformer.ByIndex(internal.IndexControllerUID, internal.OrphanIndexValue(d.Namespace))...)
	slices.SortFunc(candidates, func(a, b *api.ReplicaSet) int { return strings.Compare(a.Name, b.Name) })

	w := internal.RefWriter[api.ReplicaSet, *api.ReplicaSet]{Owner: &d.ObjectMeta, OwnerKind: "Deployment",
		Objects: c.replicaSets, Resource: "replicasets", Kind: "ReplicaSet", Selector: selector, Tracer: c.tracer}
	claimed, err := internal.Claim(ctx, &d.ObjectMeta, selector, candidates, w.Adopt, w.Release)
	for i := range claimed {
		claimed[i] = api.DeepCopy(claimed[i])
	}
	return claimed, err
}

// getPodMap groups the pods of the Deployment's ReplicaSets by ReplicaSet UID, terminating pods
// included: Recreate waits for every old pod to be really gone.
func (c *Controller) getPodMap(rsList []*api.ReplicaSet) map[string][]*api.Pod {
	podMap := make(map[string][]*api.Pod, len(rsList))
	for _, rs := range rsList {
		podMap[rs.UID] = c.podInformer.ByIndex(internal.IndexControllerUID, rs.UID)
	}
	return podMap
}

// checkPausedConditions records pausing and resuming in the Progressing condition, so that the time a
// Deployment spends paused never counts against its progress deadline.
func (c *Controller) checkPausedConditions(ctx context.Context, d *api.Deployment) error {
	if !hasProgressDeadline(d) {
		return nil
	}
	cond := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if cond != nil && cond.Reason == reasonTimedOut {
		return nil // a reported lack of progress is not overwritten by pausing
	}
	pausedCondExists := cond != nil && cond.Reason == reasonPaused
	switch {
	case d.Spec.Paused && !pausedCondExists:
		setCondition(&d.Status, c.newCondition(api.DeploymentProgressing, api.ConditionUnknown, reasonPaused, "Deployment is paused"))
	case !d.Spec.Paused && pausedCondExists:
		setCondition(&d.Status, c.newCondition(api.DeploymentProgressing, api.ConditionUnknown, reasonResumed, "Deployment is resumed"))
	default:
		return nil
	}
	return c.writeStatus(ctx, d, d.Status)
}

// syncStatusOnly refreshes the status of a Deployment that is being deleted.
func (c *Controller) syncStatusOnly(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	return c.syncDeploymentStatus(ctx, withNew(oldRSs, newRS), newRS, d)
}

// writeDeployment stores changed annotations (the revision) and a changed status in one update of
// the status subresource, as Kubernetes' controller does (its status strategy keeps the annotations
// of the body), and leaves d as stored. An update of the Deployment itself would bump its generation.
func (c *Controller) writeDeployment(ctx context.Context, d *api.Deployment, annotations, status bool) error {
	if annotations || status {
		return c.writeStatus(ctx, d, d.Status)
	}
	return nil
}

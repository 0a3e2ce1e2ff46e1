// collect.go: Collect, one pass of the pod garbage collector (gc in gc_controller.go): terminated
// pods over the threshold, orphaned pods, unscheduled terminating pods, in that order.
package podgc

import (
	"context"
	"sort"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// The DisruptionTarget condition PodGC puts on an orphaned pod before deleting it.
const (
	conditionDisruptionTarget api.PodConditionType = "DisruptionTarget"
	reasonDeletionByPodGC                          = "DeletionByPodGC"
	messageNodeNoLongerExists                      = "PodGC: node no longer exists"
)

// Collect runs one pass and reports whether it deleted anything.
func (gc *Controller) Collect(ctx context.Context) bool {
	did := gc.collectTerminated(ctx)
	did = gc.collectOrphaned(ctx) || did
	return gc.collectUnscheduledTerminating(ctx) || did
}

// collectTerminated deletes the oldest terminated pods beyond the threshold.
func (gc *Controller) collectTerminated(ctx context.Context) bool {
	if gc.threshold <= 0 {
		return false
	}
	var terminated []*api.Pod
	for _, p := range gc.pods.List() {
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			terminated = append(terminated, p)
		}
	}
	excess := len(terminated) - gc.threshold
	if excess <= 0 {
		return false
	}
	sort.SliceStable(terminated, func(i, j int) bool {
		return terminated[i].CreationTimestamp.Before(terminated[j].CreationTimestamp.Time)
	})
	gc.tracer.Record("collect", "", "",
		"%d terminated pods exceed --terminated-pod-gc-threshold=%d: garbage collecting the %d oldest", len(terminated), gc.threshold, excess)
	for _, p := range terminated[:excess] {
		gc.forceDelete(ctx, p)
	}
	return true
}

// collectOrphaned deletes pods bound to nodes that have been missing for the quarantine time.
func (gc *Controller) collectOrphaned(ctx context.Context) bool {
	// Quarantine every node that pods name but the cache does not know.
	seen := map[string]bool{}
	for _, p := range gc.pods.List() {
		node := p.Spec.NodeName
		if node == "" || seen[node] {
			continue
		}
		seen[node] = true
		if _, ok := gc.nodes.Get(node); ok {
			continue
		}
		gc.mu.Lock()
		fresh := !gc.quarantined[node]
		gc.quarantined[node] = true
		gc.mu.Unlock()
		if fresh {
			gc.quarantine.AddAfter(node, QuarantineTime)
		}
	}
	did := false
	for {
		node, ok := gc.quarantine.TryGet()
		if !ok {
			return did
		}
		gc.quarantine.Done(node)
		gc.mu.Lock()
		delete(gc.quarantined, node)
		gc.mu.Unlock()
		if gc.nodeExists(ctx, node) {
			continue
		}
		for _, p := range gc.pods.ByIndex(client.IndexNodeName, node) {
			gc.tracer.Record("collect", "pods/"+p.Namespace+"/"+p.Name, p.ResourceVersion,
				"found orphaned Pod %s/%s assigned to the Node %s, which no longer exists: mark it Failed (DisruptionTarget, %s) and delete it",
				p.Namespace, p.Name, node, reasonDeletionByPodGC)
			gc.markFailed(ctx, p)
			gc.forceDelete(ctx, p)
			did = true
		}
	}
}

// nodeExists asks the apiserver, not the cache: the cache may simply not have seen the node yet.
// If the apiserver cannot answer, the node is assumed to exist.
func (gc *Controller) nodeExists(ctx context.Context, name string) bool {
	_, err := client.For[api.Node](gc.client).Get(ctx, "", name)
	return !apierrors.IsNotFound(err)
}

// collectUnscheduledTerminating deletes terminating pods that never reached a node. (A pod that
// waits on finalizers is left to whoever owns them: a delete could not remove it anyway.)
func (gc *Controller) collectUnscheduledTerminating(ctx context.Context) bool {
	did := false
	for _, p := range gc.pods.ByIndex(client.IndexNodeName, "") {
		if p.DeletionTimestamp == nil || len(p.Finalizers) > 0 {
			continue
		}
		gc.tracer.Record("collect", "pods/"+p.Namespace+"/"+p.Name, p.ResourceVersion,
			"found unscheduled terminating Pod %s/%s not assigned to any Node: delete it", p.Namespace, p.Name)
		gc.forceDelete(ctx, p)
		did = true
	}
	return did
}

// markFailed sets phase Failed (unless the pod already finished) and the DisruptionTarget condition.
// A failure is traced and otherwise ignored: the delete that follows matters more.
func (gc *Controller) markFailed(ctx context.Context, p *api.Pod) {
	cp := api.DeepCopy(p)
	if cp.Status.Phase != api.PodSucceeded && cp.Status.Phase != api.PodFailed {
		cp.Status.Phase = api.PodFailed
	}
	cond := api.PodCondition{Type: conditionDisruptionTarget, Status: api.ConditionTrue, Reason: reasonDeletionByPodGC,
		Message: messageNodeNoLongerExists, LastTransitionTime: api.NewTime(gc.clock.Now())}
	replaced := false
	for i := range cp.Status.Conditions {
		if cp.Status.Conditions[i].Type == conditionDisruptionTarget {
			cp.Status.Conditions[i], replaced = cond, true
		}
	}
	if !replaced {
		cp.Status.Conditions = append(cp.Status.Conditions, cond)
	}
	if _, err := client.For[api.Pod](gc.client).UpdateStatus(ctx, cp); err != nil && !apierrors.IsNotFound(err) {
		gc.tracer.Record("error", "pods/"+p.Namespace+"/"+p.Name, "",
			"could not mark pod %s/%s Failed: %v", p.Namespace, p.Name, err)
	}
}

// forceDelete deletes a pod with grace period 0.
func (gc *Controller) forceDelete(ctx context.Context, p *api.Pod) {
	_, _, err := client.For[api.Pod](gc.client).Delete(ctx, p.Namespace, p.Name, client.DeleteOptions{GracePeriodSeconds: api.Ptr[int64](0)})
	if err != nil && !apierrors.IsNotFound(err) {
		gc.tracer.Record("error", "pods/"+p.Namespace+"/"+p.Name, "",
			"could not delete pod %s/%s: %v", p.Namespace, p.Name, err)
	}
}

// taintmanager.go: taint-based eviction, the NoExecuteTaintManager (Kubernetes'
// pkg/controller/tainteviction). For each pod on a node with NoExecute taints:
//
//	a taint the pod does not tolerate        -> delete the pod now
//	all tolerated, some for tolerationSeconds -> delete it when the shortest of those runs out,
//	                                             counted from when the manager first saw it
//	all tolerated without a time limit        -> leave it
//
// and when the taints go (the node is Ready again) or the pod goes, the scheduled deletion is
// cancelled. Deleting means: event TaintManagerEviction "Marking for deletion Pod <ns>/<name>",
// condition DisruptionTarget=True (reason DeletionByTaintManager), then an ordinary (graceful) delete.
//
//	processTaintKey("node/<name>" | "pod/<ns>/<name>")   (re)consider, schedule or cancel
//	evict(podKey)                                        delete, if its time has come
package nodelifecycle

import (
	"context"
	"math"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// The condition the taint manager puts on a pod before deleting it.
const (
	conditionDisruptionTarget     api.PodConditionType = "DisruptionTarget"
	reasonDeletionByTaintManager                       = "DeletionByTaintManager"
	messageDeletionByTaintManager                      = "Taint manager: deleting due to NoExecute taint"
)

// scheduledEviction is a pending deletion: first decided at createdAt, due at fireAt.
type scheduledEviction struct {
	createdAt, fireAt time.Time
}

// processTaintKey handles one queued node (all its pods) or pod, and reports whether it scheduled or
// cancelled anything.
func (nc *Controller) processTaintKey(ctx context.Context, key string) bool {
	kind, rest, _ := strings.Cut(key, "/")
	if kind == "node" {
		did := false
		for _, p := range nc.pods.ByIndex(client.IndexNodeName, rest) {
			did = nc.processPod(ctx, p.Namespace+"/"+p.Name) || did
		}
		return did
	}
	return nc.processPod(ctx, rest)
}

// processPod decides, for one pod, whether and when it must go.
func (nc *Controller) processPod(ctx context.Context, key string) bool {
	pod, ok := nc.pods.Get(key)
	if !ok || pod.Spec.NodeName == "" || pod.DeletionTimestamp != nil {
		return nc.cancelEviction(ctx, key, pod, "the pod is gone or going")
	}
	var taints []api.Taint
	if node, ok := nc.nodes.Get(pod.Spec.NodeName); ok {
		taints = noExecuteTaints(node)
	}
	if len(taints) == 0 {
		return nc.cancelEviction(ctx, key, pod, "its node has no NoExecute taint any more")
	}
	now := nc.clock.Now()
	used, allTolerated := matchingTolerations(taints, pod.Spec.Tolerations)
	if !allTolerated {
		nc.schedule(key, now, now)
		nc.tracer.Record("evict", podPath(pod.Namespace, pod.Name), pod.ResourceVersion,
			"pod %s does not tolerate the taints %s of node %s: delete it now", key, taintList(taints), pod.Spec.NodeName)
		return true
	}
	wait, forever := minTolerationTime(used)
	if forever {
		return nc.cancelEviction(ctx, key, pod, "it tolerates the taints forever")
	}
	nc.mu.Lock()
	start := now
	prev, had := nc.evictions[key]
	if had {
		start = prev.createdAt
	}
	nc.mu.Unlock()
	if had && prev.fireAt.Equal(start.Add(wait)) {
		return false
	}
	nc.schedule(key, start, start.Add(wait))
	nc.tracer.Record("schedule", podPath(pod.Namespace, pod.Name), pod.ResourceVersion,
		"pod %s tolerates %s of node %s for %s: deletion scheduled in %s", key, taintList(taints), pod.Spec.NodeName, wait, start.Add(wait).Sub(now))
	return true
}

// schedule records a deletion due at fireAt and sets a timer for it.
func (nc *Controller) schedule(key string, createdAt, fireAt time.Time) {
	nc.mu.Lock()
	nc.evictions[key] = scheduledEviction{createdAt: createdAt, fireAt: fireAt}
	nc.mu.Unlock()
	nc.clock.AfterFunc(fireAt.Sub(nc.clock.Now()), func() { nc.evictQueue.Add(key) })
}

// cancelEviction forgets a scheduled deletion, if there was one, and says so.
func (nc *Controller) cancelEviction(ctx context.Context, key string, pod *api.Pod, why string) bool {
	nc.mu.Lock()
	_, had := nc.evictions[key]
	delete(nc.evictions, key)
	nc.mu.Unlock()
	if !had {
		return false
	}
	ns, name, _ := strings.Cut(key, "/")
	nc.tracer.Record("cancel", podPath(ns, name), "", "cancel the scheduled deletion of pod %s: %s", key, why)
	if pod != nil && pod.DeletionTimestamp == nil {
		nc.events.Eventf(ctx, pod, api.EventTypeNormal, "TaintManagerEviction", "Cancelling deletion of Pod %s", key)
	}
	return true
}

// evict deletes a pod whose scheduled time has come, and reports whether it did.
func (nc *Controller) evict(ctx context.Context, key string) bool {
	now := nc.clock.Now()
	nc.mu.Lock()
	ev, ok := nc.evictions[key]
	due := ok && !ev.fireAt.After(now)
	if due {
		delete(nc.evictions, key)
	}
	nc.mu.Unlock()
	if !due {
		return false // cancelled, or rescheduled later (its own timer will come)
	}
	pod, ok := nc.pods.Get(key)
	if !ok {
		return false
	}
	nc.events.Eventf(ctx, pod, api.EventTypeNormal, "TaintManagerEviction", "Marking for deletion Pod %s", key)
	nc.tracer.Record("evict", podPath(pod.Namespace, pod.Name), pod.ResourceVersion,
		"taint-based eviction of pod %s from node %s: condition DisruptionTarget (%s), then delete", key, pod.Spec.NodeName, reasonDeletionByTaintManager)
	cp := api.DeepCopy(pod)
	cond := api.PodCondition{Type: conditionDisruptionTarget, Status: api.ConditionTrue, Reason: reasonDeletionByTaintManager,
		Message: messageDeletionByTaintManager, LastTransitionTime: api.NewTime(now)}
	if c := api.GetPodCondition(cp, conditionDisruptionTarget); c != nil {
		*c = cond
	} else {
		cp.Status.Conditions = append(cp.Status.Conditions, cond)
	}
	pods := podsClient(nc.client)
	if _, err := pods.UpdateStatus(ctx, cp); err != nil && !apierrors.IsNotFound(err) {
		nc.tracer.Record("error", podPath(pod.Namespace, pod.Name), "",
			"could not add condition DisruptionTarget to pod %s: %v", key, err)
	}
	if _, _, err := pods.Delete(ctx, pod.Namespace, pod.Name, client.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		nc.tracer.Record("error", podPath(pod.Namespace, pod.Name), "",
			"could not delete pod %s: %v (retry in 10s)", key, err)
		nc.schedule(key, ev.createdAt, now.Add(10*time.Second))
	}
	return true
}

// matchingTolerations returns, for each taint, the first toleration that tolerates it, and whether
// every taint is tolerated (GetMatchingTolerations).
func matchingTolerations(taints []api.Taint, tolerations []api.Toleration) ([]api.Toleration, bool) {
	var used []api.Toleration
	for i := range taints {
		found := false
		for j := range tolerations {
			if tolerations[j].ToleratesTaint(&taints[i]) {
				used = append(used, tolerations[j])
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return used, true
}

// minTolerationTime is the shortest tolerationSeconds among the tolerations (0 or less means at
// once), or forever if none sets one.
func minTolerationTime(ts []api.Toleration) (time.Duration, bool) {
	minSecs := int64(math.MaxInt64)
	for _, t := range ts {
		if t.TolerationSeconds == nil {
			continue
		}
		if *t.TolerationSeconds <= 0 {
			return 0, false
		}
		minSecs = min(minSecs, *t.TolerationSeconds)
	}
	if minSecs == math.MaxInt64 {
		return 0, true
	}
	return time.Duration(minSecs) * time.Second, false
}

// sync.go: Reconcile, one look at one DaemonSet (syncDaemonSet with manage and updateDaemonSetStatus).
//
//	for every node: should it run the pod? does it have one (or several, or a failed one)?
//	-> create the missing pods, delete the extra and the misplaced ones (unless expectations say
//	   earlier creates and deletes are not in the cache yet)
//	-> write status
package daemonset

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/internal"
)

// Reconcile brings the DaemonSet named by key ("namespace/name") in line with the nodes.
func (dc *Controller) Reconcile(ctx context.Context, key string) error {
	ds, ok := dc.daemonSets.Get(key)
	if !ok || ds.DeletionTimestamp != nil {
		return nil
	}
	nodes := dc.nodes.List()
	nodeToPods := map[string][]*api.Pod{}
	for _, p := range dc.pods.ByIndex(internal.IndexControllerUID, ds.UID) {
		if p.DeletionTimestamp != nil {
			continue
		}
		if n := targetNode(p); n != "" {
			nodeToPods[n] = append(nodeToPods[n], p)
		}
	}
	if dc.expect.satisfied(key) {
		if err := dc.manage(ctx, ds, key, nodes, nodeToPods); err != nil {
			return err
		}
	}
	return dc.updateStatus(ctx, ds, nodes, nodeToPods)
}

// manage creates and deletes daemon pods.
func (dc *Controller) manage(ctx context.Context, ds *api.DaemonSet, key string, nodes []*api.Node, nodeToPods map[string][]*api.Pod) error {
	var create []string
	var remove []*api.Pod
	var why []string
	for _, node := range nodes {
		shouldRun, shouldContinue := nodeShouldRunDaemonPod(node, ds)
		pods := nodeToPods[node.Name]
		switch {
		case shouldRun && len(pods) == 0:
			create = append(create, node.Name)
		case shouldContinue:
			var running []*api.Pod
			for _, p := range pods {
				if p.Status.Phase == api.PodFailed {
					dc.events.Eventf(ctx, ds, api.EventTypeWarning, "FailedDaemonPod",
						"Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, node.Name)
					remove = append(remove, p)
					continue
				}
				running = append(running, p)
			}
			if len(running) > 1 {
				// Keep the oldest; the others are duplicates.
				sort.SliceStable(running, func(i, j int) bool { return running[i].CreationTimestamp.Before(running[j].CreationTimestamp.Time) })
				remove = append(remove, running[1:]...)
				why = append(why, fmt.Sprintf("%d pods on %s", len(running), node.Name))
			}
		case len(pods) > 0:
			remove = append(remove, pods...)
			why = append(why, node.Name+" should not run it")
		}
	}
	if len(create) == 0 && len(remove) == 0 {
		return nil
	}
	dc.tracer.Record("reconcile", "daemonsets/"+key, ds.ResourceVersion,
		"reconcile %s: %d nodes; no daemon pod on [%s] -> create %d; [%s] -> delete %d (expecting %d adds, %d deletes)",
		key, len(nodes), strings.Join(create, ", "), len(create), strings.Join(why, ", "), len(remove), len(create), len(remove))
	dc.expect.expect(key, len(create), len(remove))

	pods := client.For[api.Pod](dc.client)
	var errs []string
	for _, node := range create {
		created, err := pods.Create(ctx, newPod(ds, node))
		if err != nil {
			dc.expect.lower(key, true)
			dc.events.Eventf(ctx, ds, api.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
			errs = append(errs, err.Error())
			continue
		}
		dc.events.Eventf(ctx, ds, api.EventTypeNormal, "SuccessfulCreate", "Created pod: %s", created.Name)
	}
	for _, p := range remove {
		_, _, err := pods.Delete(ctx, p.Namespace, p.Name, client.DeleteOptions{})
		if err != nil {
			dc.expect.lower(key, false)
			if !apierrors.IsNotFound(err) {
				dc.events.Eventf(ctx, ds, api.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
				errs = append(errs, err.Error())
			}
			continue
		}
		dc.events.Eventf(ctx, ds, api.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %s", p.Name)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// updateStatus writes the counts, if they changed.
func (dc *Controller) updateStatus(ctx context.Context, ds *api.DaemonSet, nodes []*api.Node, nodeToPods map[string][]*api.Pod) error {
	now := dc.clock.Now()
	st := api.DaemonSetStatus{ObservedGeneration: ds.Generation}
	generation := strconv.FormatInt(ds.Generation, 10)
	for _, node := range nodes {
		shouldRun, _ := nodeShouldRunDaemonPod(node, ds)
		pods := nodeToPods[node.Name]
		if shouldRun {
			st.DesiredNumberScheduled++
		}
		if len(pods) == 0 {
			continue
		}
		if !shouldRun {
			st.NumberMisscheduled++
			continue
		}
		st.CurrentNumberScheduled++
		p := pods[0]
		if since, ok := readySince(p); ok {
			st.NumberReady++
			if now.Sub(since) >= time.Duration(ds.Spec.MinReadySeconds)*time.Second {
				st.NumberAvailable++
			}
		}
		if p.Labels[TemplateGenerationLabel] == generation {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	if st == ds.Status {
		return nil
	}
	cp := api.DeepCopy(ds)
	cp.Status = st
	dc.tracer.Detail("status", "daemonsets/"+ds.Namespace+"/"+ds.Name, ds.ResourceVersion,
		"status: desired %d, current %d, ready %d, available %d, misscheduled %d",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.NumberAvailable, st.NumberMisscheduled)
	_, err := client.For[api.DaemonSet](dc.client).UpdateStatus(ctx, cp)
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// targetNode is the node a daemon pod is for: spec.nodeName once bound, else the node its required
// affinity pins it to (GetTargetNodeName).
func targetNode(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	aff := p.Spec.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range term.MatchFields {
			if f.Key == "metadata.name" && f.Operator == api.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// readySince reports whether the pod is Ready, and since when.
func readySince(p *api.Pod) (time.Time, bool) {
	if c := api.GetPodCondition(p, api.PodReady); c != nil && c.Status == api.ConditionTrue {
		return c.LastTransitionTime.Time, true
	}
	return time.Time{}, false
}

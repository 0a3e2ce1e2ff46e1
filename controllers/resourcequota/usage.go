// usage.go: one full recalculation of a quota (Kubernetes' syncResourceQuota), and the resync.
//
//	Reconcile(ctx, key)   recount the quota "namespace/name"; the key "resync" queues every quota
package resourcequota

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/controllers/workloop"
)

// Reconcile recounts one quota from the cache and writes its status if it changed: status.hard is
// spec.hard, status.used the usage of every object the quota counts. A resource the controller cannot
// count keeps the usage last written (admission's). It is Idle when the status was already right.
func (rq *Controller) Reconcile(ctx context.Context, key string) (workloop.Result, error) {
	if key == resyncKey {
		for _, q := range rq.quotas.List() {
			rq.queue.Add(quotaKey(q))
		}
		return workloop.Result{RequeueAfter: ResyncPeriod, Idle: true}, nil
	}
	q, ok := rq.quotas.Get(key)
	if !ok {
		return workloop.Result{Idle: true}, nil // deleted: nothing to keep
	}
	hard := q.Spec.Hard.DeepCopy()
	used := resource.ResourceList{}
	for name, v := range q.Status.Used {
		if _, ok := hard[name]; ok {
			used[name] = v
		}
	}
	maps.Copy(used, rq.calculateUsage(q.Namespace, hard))
	if equalLists(hard, q.Status.Hard) && equalLists(used, q.Status.Used) {
		return workloop.Result{Idle: true}, nil
	}
	next := api.DeepCopy(q)
	next.Status = api.ResourceQuotaStatus{Hard: hard, Used: used}
	rq.tracer.Record("update", "resourcequotas/"+key, q.ResourceVersion,
		"recounted quota %s/%s: used %s of %s",
		q.Namespace, q.Name, format(used), format(hard))
	_, err := client.For[api.ResourceQuota](rq.client).UpdateStatus(ctx, next)
	return workloop.Result{}, err
}

// calculateUsage sums, for each resource of hard that some counted kind's evaluator knows, the usage
// of that kind's objects in namespace; a resource nothing uses is 0 (quota.CalculateUsage).
func (rq *Controller) calculateUsage(namespace string, hard resource.ResourceList) resource.ResourceList {
	now := rq.clock.Now()
	usage := resource.ResourceList{}
	for _, k := range rq.kinds {
		var names []resource.ResourceName
		for _, name := range api.QuotaResources(k.res) {
			if _, ok := hard[name]; ok {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			continue
		}
		for _, name := range names {
			usage[name] = resource.NewQuantity(0, resource.DecimalSI)
		}
		for _, obj := range k.list(namespace) {
			u := api.QuotaUsage(obj, now)
			for _, name := range names {
				if v, ok := u[name]; ok {
					sum := usage[name]
					sum.Add(v)
					usage[name] = sum
				}
			}
		}
	}
	return usage
}

// format writes a resource list sorted, as "pods=3,requests.cpu=600m".
func format(rl resource.ResourceList) string {
	parts := make([]string, 0, len(rl))
	for _, name := range slices.Sorted(maps.Keys(rl)) {
		q := rl[name]
		parts = append(parts, fmt.Sprintf("%s=%s", name, q.String()))
	}
	return strings.Join(parts, ",")
}

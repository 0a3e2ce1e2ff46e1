// quota.go: the ResourceQuota validating admission plugin (k8s.io/apiserver's
// plugin/pkg/admission/resourcequota with the pod evaluator of pkg/quota/v1/evaluator/core). A
// ResourceQuota caps what a namespace may hold: "pods: 10", "requests.cpu: 4". At every pod create the
// plugin adds the new pod's usage to what the namespace already uses and refuses the create, 403
// Forbidden, when any hard limit would be passed:
//
//	pods "web-1" is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3
//
// This is what holds a runaway creator (a ReplicaSet with too many replicas, a loop in a script) at
// the quota: every further create is refused until something is deleted or the quota is raised.
//
// A quota on cpu or memory also makes those fields mandatory: a pod whose containers do not say how
// much they request (or may use) cannot be counted, so it is refused with "failed quota: <name>: must
// specify ...". This coupling of counting and validation is one Kubernetes itself calls a historical
// mistake, kept for compatibility.
//
// Simplification: Kubernetes reads "used" from the quota's status.used, which the resourcequota
// controller recomputes, and after admitting a create it writes the new total back to status.used with
// a compare-and-swap, so that two concurrent creates cannot both take the last slot. kubesim has no
// resourcequota controller: the plugin sums the namespace's pods from the watch cache at each request
// (after waiting for the cache to hold the apiserver's own last write, so the next create sees the
// last one) and leaves status unset. In step mode requests are serial, so the count is exact; two
// truly concurrent creates in real-time mode could both pass.
package apiserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/resource"
)

// resourceCountPods is the object-count form of the pods quota ("count/pods"), which Kubernetes
// accepts for every resource as count/<resource>.<group>.
const resourceCountPods resource.ResourceName = "count/pods"

// podQuotaResources are the quota names the pod evaluator counts. cpu and memory are the older
// spellings of requests.cpu and requests.memory.
var podQuotaResources = []resource.ResourceName{
	resource.ResourcePods, resourceCountPods,
	resource.ResourceCPU, resource.ResourceMemory,
	api.ResourceRequestsCPU, api.ResourceRequestsMemory,
	api.ResourceLimitsCPU, api.ResourceLimitsMemory,
}

// computeQuotaResources are the quota names that every container must then set explicitly.
var computeQuotaResources = []resource.ResourceName{
	resource.ResourceCPU, resource.ResourceMemory,
	api.ResourceRequestsCPU, api.ResourceRequestsMemory,
	api.ResourceLimitsCPU, api.ResourceLimitsMemory,
}

// resourceQuotaAdmission is the ResourceQuota plugin: it only refuses, and only pod creates.
type resourceQuotaAdmission struct{ s *Server }

func (resourceQuotaAdmission) Name() string { return "ResourceQuota" }

func (p resourceQuotaAdmission) Validate(ctx context.Context, a *admissionAttributes) error {
	pod, ok := a.obj.(*api.Pod)
	if !ok || !a.creating() {
		return nil
	}
	if err := p.s.fresh(ctx, "pods", "resourcequotas"); err != nil {
		return apierrors.NewTimeout(err.Error())
	}
	quotaRes, _ := api.ResourceFor("resourcequotas")
	objs, _ := p.s.cache.list(quotaRes, selection{namespace: pod.Namespace, labels: everythingLabels(), fields: everythingFields()})
	if len(objs) == 0 {
		return nil
	}
	requested := podQuotaUsage(pod)
	var used resource.ResourceList // the namespace's usage, summed once and only if a quota needs it
	for _, o := range objs {
		q := o.(*api.ResourceQuota)
		hard := mask(q.Spec.Hard, podQuotaResources)
		if len(hard) == 0 {
			continue
		}
		if why := podConstraints(pod, hard); why != "" {
			return apierrors.NewForbidden("pods", pod.Name, fmt.Sprintf("failed quota: %s: %s", q.Name, why))
		}
		if used == nil {
			used = p.namespaceUsage(pod.Namespace)
		}
		var exceeded []resource.ResourceName
		for _, name := range slices.Sorted(maps.Keys(hard)) {
			after := used[name]
			after.Add(requested[name])
			if after.Cmp(hard[name]) > 0 {
				exceeded = append(exceeded, name)
			}
		}
		if len(exceeded) > 0 {
			return apierrors.NewForbidden("pods", pod.Name, fmt.Sprintf(
				"exceeded quota: %s, requested: %s, used: %s, limited: %s", q.Name,
				prettyPrint(requested, exceeded), prettyPrint(used, exceeded), prettyPrint(hard, exceeded)))
		}
	}
	return nil
}

// namespaceUsage sums the quota usage of the pods in a namespace, as the resourcequota controller
// would write it to status.used.
func (p resourceQuotaAdmission) namespaceUsage(namespace string) resource.ResourceList {
	podRes, _ := api.ResourceFor("pods")
	objs, _ := p.s.cache.list(podRes, selection{namespace: namespace, labels: everythingLabels(), fields: everythingFields()})
	used := resource.ResourceList{}
	now := p.s.clock.Now()
	for _, o := range objs {
		if pod := o.(*api.Pod); countsAgainstQuota(pod, now) {
			used.Add(podQuotaUsage(pod))
		}
	}
	return used
}

// countsAgainstQuota: a pod that has finished (Succeeded or Failed) no longer holds its resources,
// and neither does one whose deletion grace period has run out (the kubelet is only late to say so).
func countsAgainstQuota(pod *api.Pod, now time.Time) bool {
	if pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return false
	}
	if pod.DeletionTimestamp != nil && pod.DeletionGracePeriodSeconds != nil {
		end := pod.DeletionTimestamp.Add(time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second)
		if now.After(end) {
			return false
		}
	}
	return true
}

// podQuotaUsage is what one pod counts for: one pod, and its containers' requests and limits. A
// resource no container sets is left out rather than counted as zero.
func podQuotaUsage(pod *api.Pod) resource.ResourceList {
	usage := resource.ResourceList{
		resource.ResourcePods: resource.NewQuantity(1, resource.DecimalSI),
		resourceCountPods:     resource.NewQuantity(1, resource.DecimalSI),
	}
	requests := api.PodRequests(pod)
	limits := resource.ResourceList{}
	for i := range pod.Spec.Containers {
		limits.Add(pod.Spec.Containers[i].Resources.Limits)
	}
	if q, ok := requests[resource.ResourceCPU]; ok {
		usage[resource.ResourceCPU], usage[api.ResourceRequestsCPU] = q, q
	}
	if q, ok := requests[resource.ResourceMemory]; ok {
		usage[resource.ResourceMemory], usage[api.ResourceRequestsMemory] = q, q
	}
	if q, ok := limits[resource.ResourceCPU]; ok {
		usage[api.ResourceLimitsCPU] = q
	}
	if q, ok := limits[resource.ResourceMemory]; ok {
		usage[api.ResourceLimitsMemory] = q
	}
	return usage
}

// podConstraints returns why a pod cannot be counted by a quota with these hard limits: the compute
// resources the quota constrains that some container leaves unset, as
// "must specify limits.cpu for: app; limits.memory for: app". It is "" when every container sets them.
func podConstraints(pod *api.Pod, hard resource.ResourceList) string {
	missing := map[resource.ResourceName][]string{}
	for _, c := range pod.Spec.Containers {
		set := map[resource.ResourceName]bool{}
		if _, ok := c.Resources.Requests[resource.ResourceCPU]; ok {
			set[resource.ResourceCPU], set[api.ResourceRequestsCPU] = true, true
		}
		if _, ok := c.Resources.Requests[resource.ResourceMemory]; ok {
			set[resource.ResourceMemory], set[api.ResourceRequestsMemory] = true, true
		}
		if _, ok := c.Resources.Limits[resource.ResourceCPU]; ok {
			set[api.ResourceLimitsCPU] = true
		}
		if _, ok := c.Resources.Limits[resource.ResourceMemory]; ok {
			set[api.ResourceLimitsMemory] = true
		}
		for _, name := range computeQuotaResources {
			if _, constrained := hard[name]; constrained && !set[name] {
				missing[name] = append(missing[name], c.Name)
			}
		}
	}
	if len(missing) == 0 {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(missing)) {
		names := slices.Sorted(slices.Values(missing[name]))
		parts = append(parts, fmt.Sprintf("%s for: %s", name, strings.Join(slices.Compact(names), ",")))
	}
	return "must specify " + strings.Join(parts, "; ")
}

// mask keeps the entries of rl whose names are in names.
func mask(rl resource.ResourceList, names []resource.ResourceName) resource.ResourceList {
	out := resource.ResourceList{}
	for _, name := range names {
		if q, ok := rl[name]; ok {
			out[name] = q
		}
	}
	return out
}

// prettyPrint writes the named entries of rl as Kubernetes does in quota messages: sorted,
// "name=quantity", comma-separated, a missing entry as 0.
func prettyPrint(rl resource.ResourceList, names []resource.ResourceName) string {
	parts := make([]string, 0, len(names))
	for _, name := range names {
		q := rl[name]
		parts = append(parts, fmt.Sprintf("%s=%s", name, q.String()))
	}
	return strings.Join(parts, ",")
}

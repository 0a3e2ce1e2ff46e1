// quota.go: the ResourceQuota validating admission plugin (k8s.io/apiserver's
// plugin/pkg/admission/resourcequota with the evaluators of pkg/quota/v1/evaluator/core, here
// api.QuotaUsage). A ResourceQuota caps what a namespace may hold: "pods: 10", "requests.cpu: 4",
// "count/deployments.apps: 2". At every create the plugin adds the new object's usage to the quota's
// status.used and refuses the create, 403 Forbidden, when any limit of status.hard would be passed:
//
//	pods "web-1" is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3
//
// Otherwise it writes the new total to status.used before the object is stored, with a
// compare-and-swap on the quota's resourceVersion: of two concurrent creates that both read "2 of 3
// used", only one write of "3" succeeds; the other gets a conflict, reads the quota again, sees 3 of 3
// and is refused. This is why a quota never overshoots, however many apiservers and writers race.
// The resourcequota controller (controllers/resourcequota) later recomputes status.used from the
// objects themselves, which gives back what deletes, finished pods and creates that failed after
// admission took.
//
// The plugin reads status, not spec: a quota whose status the controller has not filled in yet limits
// nothing, and one whose status.hard names a resource without a status.used entry refuses creates
// ("status unknown for quota: ..."), as in Kubernetes.
//
// A quota on cpu or memory also makes those fields mandatory: a pod whose containers do not say how
// much they request (or may use) cannot be counted, so it is refused with "failed quota: <name>: must
// specify ...". This coupling of counting and validation is one Kubernetes itself calls a historical
// mistake, kept for compatibility.
//
// Simplification: Kubernetes batches the creates of one namespace through one evaluator goroutine;
// kubesim lets each request do its own compare-and-swap, which gives the same guarantee. Quotas have
// no scopes.
package apiserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/resource"
	"kubesim/trace"
	"kubesim/wire"
)

// quotaRetries is how many times a create re-reads the quotas whose status.used it failed to
// update, and tries again, before it gives up with the conflict (Kubernetes' checkQuotas).
const quotaRetries = 3

// resourceQuotaAdmission is the ResourceQuota plugin: it refuses creates past a quota and charges
// the ones it lets through.
type resourceQuotaAdmission struct{ s *Server }

func (resourceQuotaAdmission) Name() string { return "ResourceQuota" }

func (p resourceQuotaAdmission) Validate(ctx context.Context, a *admissionAttributes) error {
	if !a.creating() || !a.res.Namespaced {
		return nil
	}
	if err := p.s.fresh(ctx, "resourcequotas"); err != nil {
		return deadlineError(err)
	}
	quotaRes, _ := api.ResourceFor("resourcequotas")
	objs, _ := p.s.cache.list(quotaRes, selection{namespace: a.req.Namespace, labels: everythingLabels(), fields: everythingFields()})
	quotas := make([]*api.ResourceQuota, 0, len(objs))
	for _, o := range objs {
		quotas = append(quotas, o.(*api.ResourceQuota))
	}
	for attempt := 0; len(quotas) > 0; attempt++ {
		charged, err := p.checkRequest(quotas, a)
		if err != nil || len(charged) == 0 || a.req.DryRun {
			return err
		}
		var failed []string
		var lastErr error
		for _, q := range charged {
			if err := p.chargeQuota(ctx, a, q); err != nil {
				failed, lastErr = append(failed, q.Name), err
			}
		}
		if len(failed) == 0 {
			return nil
		}
		if attempt == quotaRetries || !apierrors.IsConflict(lastErr) {
			return lastErr
		}
		// Another create charged these quotas first: read them again, live, and check once more.
		// A quota deleted meanwhile limits nothing any more.
		quotas = quotas[:0]
		for _, name := range failed {
			if o, err := p.s.read(ctx, quotaRes, a.req.Namespace, name); err == nil {
				quotas = append(quotas, o.(*api.ResourceQuota))
			}
		}
	}
	return nil
}

// checkRequest checks the object against each quota's status and returns a copy of each quota it
// uses with status.used raised by the object's usage (Kubernetes' CheckRequest). It refuses the
// request when a quota would be exceeded, when a pod leaves unset a compute resource a quota
// constrains, or when a quota's usage is not known yet.
func (p resourceQuotaAdmission) checkRequest(quotas []*api.ResourceQuota, a *admissionAttributes) ([]*api.ResourceQuota, error) {
	name := a.obj.GetObjectMeta().Name
	counted := api.QuotaResources(a.res)
	var interesting []*api.ResourceQuota
	for _, q := range quotas {
		restricted := mask(q.Status.Hard, counted)
		if len(restricted) == 0 {
			continue
		}
		if pod, ok := a.obj.(*api.Pod); ok {
			if why := podConstraints(pod, restricted); why != "" {
				return nil, apierrors.NewForbidden(a.res.GroupResource(), name, fmt.Sprintf("failed quota: %s: %s", q.Name, why))
			}
		}
		if missing := missingUsage(q, restricted); len(missing) > 0 {
			return nil, apierrors.NewForbidden(a.res.GroupResource(), name, fmt.Sprintf(
				"status unknown for quota: %s, resources: %s", q.Name, strings.Join(resourceNames(missing), ",")))
		}
		interesting = append(interesting, q)
	}
	delta := api.QuotaUsage(a.obj, p.s.clock.Now())
	var charged []*api.ResourceQuota
	for _, q := range interesting {
		requested := mask(delta, slices.Collect(maps.Keys(q.Status.Hard)))
		used := q.Status.Used.DeepCopy()
		used.Add(requested)
		var exceeded []resource.ResourceName
		for _, rn := range slices.Sorted(maps.Keys(requested)) {
			if used[rn].Cmp(q.Status.Hard[rn]) > 0 {
				exceeded = append(exceeded, rn)
			}
		}
		if len(exceeded) > 0 {
			return nil, apierrors.NewForbidden(a.res.GroupResource(), name, fmt.Sprintf(
				"exceeded quota: %s, requested: %s, used: %s, limited: %s", q.Name,
				prettyPrint(requested, exceeded), prettyPrint(q.Status.Used, exceeded), prettyPrint(q.Status.Hard, exceeded)))
		}
		if isZero(requested) {
			continue
		}
		out := api.DeepCopy(q)
		out.Status.Used = used
		charged = append(charged, out)
	}
	return charged, nil
}

// chargeQuota writes q's raised status.used over the version it was read at: a compare-and-swap that
// fails with 409 Conflict when another request charged the quota in between. The apiserver writes
// as itself (its loopback identity), as Kubernetes' quota admission does.
func (p resourceQuotaAdmission) chargeQuota(ctx context.Context, a *admissionAttributes, q *api.ResourceQuota) error {
	quotaRes, _ := api.ResourceFor("resourcequotas")
	modRev, err := strconv.ParseInt(q.ResourceVersion, 10, 64)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	req := &wire.Request{Verb: wire.VerbUpdate, Resource: quotaRes.Name, Subresource: "status",
		Namespace: q.Namespace, Name: q.Name, Quiet: a.req.Quiet}
	loopback := User{Name: LoopbackUser}
	if err := p.s.persist(ctx, req, quotaRes, loopback, q, modRev); err != nil {
		return err
	}
	if p.s.trace != nil {
		p.s.record(req, quotaRes, trace.Event{Component: "kube-apiserver", Actor: LoopbackUser, Action: "admit", ResourceVersion: q.ResourceVersion}.
			Msgf("ResourceQuota: %s charged to quota %s/%s: used %s of %s", describe(a.req, a.res), q.Namespace, q.Name,
				prettyPrint(q.Status.Used, sortedNames(q.Status.Hard)), prettyPrint(q.Status.Hard, sortedNames(q.Status.Hard))))
	}
	return nil
}

// missingUsage are the restricted resources a quota's status.used has no entry for yet.
func missingUsage(q *api.ResourceQuota, restricted resource.ResourceList) []resource.ResourceName {
	var missing []resource.ResourceName
	for _, rn := range sortedNames(restricted) {
		if _, ok := q.Status.Used[rn]; !ok {
			missing = append(missing, rn)
		}
	}
	return missing
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
		for _, name := range api.PodComputeResources() {
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

// isZero reports whether every quantity in rl is zero: charging it would change nothing.
func isZero(rl resource.ResourceList) bool {
	for _, q := range rl {
		if !q.IsZero() {
			return false
		}
	}
	return true
}

// sortedNames are rl's resource names in order.
func sortedNames(rl resource.ResourceList) []resource.ResourceName {
	return slices.Sorted(maps.Keys(rl))
}

// resourceNames turns names into strings.
func resourceNames(names []resource.ResourceName) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
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

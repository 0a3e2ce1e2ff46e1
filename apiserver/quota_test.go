package apiserver

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/resource"
	"kubesim/wire"
)

func quota(name string, hard map[string]string) *api.ResourceQuota {
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.ResourceQuotaSpec{Hard: resource.ResourceList{}}}
	for k, v := range hard {
		q.Spec.Hard[resource.ResourceName(k)] = resource.MustParse(v)
	}
	return q
}

// createQuota creates q and then does what the resourcequota controller does first for a quota in
// an empty namespace: status.hard from spec.hard, status.used zero for each.
func (ts *testServer) createQuota(t testing.TB, q *api.ResourceQuota) {
	t.Helper()
	created := ts.create(t, q).(*api.ResourceQuota)
	created.Status.Hard = created.Spec.Hard.DeepCopy()
	created.Status.Used = resource.ResourceList{}
	for name := range created.Spec.Hard {
		created.Status.Used[name] = resource.MustParse("0")
	}
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "resourcequotas", Subresource: "status",
		Namespace: created.Namespace, Name: created.Name, Body: created})
	require.NoError(t, err)
}

func (ts *testServer) getQuota(t testing.TB, name string) *api.ResourceQuota {
	t.Helper()
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "resourcequotas", Namespace: "default", Name: name})
	require.NoError(t, err)
	return resp.Object.(*api.ResourceQuota)
}

// sizedPod is nginxPod with requests and limits on its one container.
func sizedPod(name, cpuReq, memReq, cpuLim, memLim string) *api.Pod {
	p := nginxPod(name)
	p.Spec.Containers[0].Resources = api.ResourceRequirements{
		Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpuReq), resource.ResourceMemory: resource.MustParse(memReq)},
		Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpuLim), resource.ResourceMemory: resource.MustParse(memLim)},
	}
	return p
}

func (ts *testServer) createPod(t testing.TB, pod *api.Pod, dryRun bool) error {
	t.Helper()
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: pod.Namespace, Body: pod, DryRun: dryRun})
	return err
}

func TestQuotaRefusesThePodOneTooManyWithRequestedUsedLimited(t *testing.T) {
	ts := newTestServer(t)
	ts.createQuota(t, quota("pod-count", map[string]string{"pods": "2"}))
	require.NoError(t, ts.createPod(t, nginxPod("web-1"), false))
	require.NoError(t, ts.createPod(t, nginxPod("web-2"), false), "the very next create sees the last write")

	err := ts.createPod(t, nginxPod("web-3"), false)
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err))
	assert.Equal(t, `pods "web-3" is forbidden: exceeded quota: pod-count, requested: pods=1, used: pods=2, limited: pods=2`, err.Error())
	assert.True(t, traceContains(ts.trace, "admission plugin ResourceQuota rejected"), "the trace names the plugin")

	err = ts.createPod(t, nginxPod("web-3"), true)
	assert.True(t, apierrors.IsForbidden(err), "a dry run is checked too")

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "kube-system", Body: &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-3", Namespace: "kube-system"}, Spec: nginxPod("x").Spec}})
	assert.NoError(t, err, "a quota caps only its own namespace")
}

func TestQuotaAdmissionChargesStatusUsedInTheSameRequest(t *testing.T) {
	ts := newTestServer(t)
	ts.createQuota(t, quota("compute-resources", map[string]string{"pods": "3", "requests.cpu": "1"}))
	require.NoError(t, ts.createPod(t, sizedPod("web-1", "300m", "256Mi", "600m", "256Mi"), false))

	used := ts.getQuota(t, "compute-resources").Status.Used
	assert.Equal(t, "1", used.Pods().String())
	q := used[api.ResourceRequestsCPU]
	assert.Equal(t, "300m", q.String())
	assert.True(t, traceContains(ts.trace, "charged to quota default/compute-resources: used pods=1,requests.cpu=300m of pods=3,requests.cpu=1"))

	require.NoError(t, ts.createPod(t, sizedPod("dry", "100m", "64Mi", "100m", "64Mi"), true))
	assert.Equal(t, "1", ts.getQuota(t, "compute-resources").Status.Used.Pods().String(), "a dry run charges nothing")
}

func TestQuotaNamesEveryExceededResourceSorted(t *testing.T) {
	ts := newTestServer(t)
	ts.createQuota(t, quota("compute-resources", map[string]string{"pods": "2", "limits.cpu": "1", "requests.memory": "1Gi"}))
	require.NoError(t, ts.createPod(t, sizedPod("web-1", "300m", "256Mi", "600m", "256Mi"), false))

	err := ts.createPod(t, sizedPod("web-2", "300m", "256Mi", "600m", "256Mi"), false)
	require.Error(t, err)
	assert.Equal(t, `pods "web-2" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=600m, used: limits.cpu=600m, limited: limits.cpu=1`, err.Error(),
		"only the resources that would be exceeded are named")

	require.NoError(t, ts.createPod(t, sizedPod("web-2", "300m", "256Mi", "400m", "256Mi"), false), "exactly at the limit is allowed")
	err = ts.createPod(t, sizedPod("web-3", "100m", "1Gi", "100m", "1Gi"), false)
	require.Error(t, err)
	assert.Equal(t, `pods "web-3" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=100m,pods=1,requests.memory=1Gi, used: limits.cpu=1,pods=2,requests.memory=512Mi, limited: limits.cpu=1,pods=2,requests.memory=1Gi`, err.Error())
}

func TestQuotaOnComputeResourcesRequiresEveryContainerToSetThem(t *testing.T) {
	ts := newTestServer(t)
	ts.createQuota(t, quota("compute-resources", map[string]string{"pods": "5", "limits.cpu": "2", "limits.memory": "2Gi"}))

	err := ts.createPod(t, nginxPod("bare"), false)
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err))
	assert.Equal(t, `pods "bare" is forbidden: failed quota: compute-resources: must specify limits.cpu for: nginx; limits.memory for: nginx`, err.Error())

	limitsOnly := nginxPod("limits-only")
	limitsOnly.Spec.Containers[0].Resources.Limits = resource.ResourceList{
		resource.ResourceCPU: resource.MustParse("500m"), resource.ResourceMemory: resource.MustParse("128Mi")}
	require.NoError(t, ts.createPod(t, limitsOnly, false), "limits alone satisfy a limits-only quota")
}

// Admission reads status, not spec: until the resourcequota controller has filled in status.hard the
// quota limits nothing, and a limit in status.hard without its status.used refuses creates.
func TestQuotaAdmissionReadsStatusNotSpec(t *testing.T) {
	ts := newTestServer(t)
	created := ts.create(t, quota("pod-count", map[string]string{"pods": "0"})).(*api.ResourceQuota)
	require.NoError(t, ts.createPod(t, nginxPod("early"), false), "no status yet: nothing is enforced")

	created.Status.Hard = created.Spec.Hard.DeepCopy()
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "resourcequotas", Subresource: "status",
		Namespace: "default", Name: "pod-count", Body: created})
	require.NoError(t, err)
	err = ts.createPod(t, nginxPod("late"), false)
	require.Error(t, err)
	assert.Equal(t, `pods "late" is forbidden: status unknown for quota: pod-count, resources: pods`, err.Error())
}

func TestQuotaCountsObjectsOfAnyKind(t *testing.T) {
	ts := newTestServer(t)
	ts.createQuota(t, quota("objects", map[string]string{"count/deployments.apps": "1", "services": "0"}))
	deployment := func(name string) *api.Deployment {
		labels := map[string]string{"app": name}
		return &api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: nginxPod("x").Spec}}}
	}
	ts.create(t, deployment("web"))
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "deployments", Namespace: "default", Body: deployment("api")})
	require.Error(t, err)
	assert.Equal(t, `deployments.apps "api" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1`, err.Error())

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "services", Namespace: "default", Body: &api.Service{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec:       api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeded quota: objects, requested: services=1, used: services=0, limited: services=0")
	require.NoError(t, ts.createPod(t, nginxPod("web-1"), false), "pods are not limited by this quota")
}

// Many clients race for the last slots of a quota, in real time on goroutines: the compare-and-swap
// on status.used lets exactly as many through as there are slots, never one more.
func TestConcurrentCreatesNeverOvershootTheQuota(t *testing.T) {
	ts := newTestServer(t)
	const slots, clients = 5, 20
	ts.createQuota(t, quota("pod-count", map[string]string{"pods": fmt.Sprint(slots)}))

	var wg sync.WaitGroup
	errs := make([]error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = ts.createPod(t, nginxPod(fmt.Sprintf("racer-%d", i)), false)
		}()
	}
	wg.Wait()
	admitted := 0
	for _, err := range errs {
		switch {
		case err == nil:
			admitted++
		default:
			assert.True(t, apierrors.IsForbidden(err) || apierrors.IsConflict(err), "refused by the quota, or out of retries: %v", err)
		}
	}
	assert.LessOrEqual(t, admitted, slots, "never more pods than the quota allows")

	// Whatever the race left free, serial creates fill exactly to the quota.
	for i := 0; ts.createPod(t, nginxPod(fmt.Sprintf("late-%d", i)), false) == nil; i++ {
		admitted++
	}
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default"})
	require.NoError(t, err)
	assert.Len(t, resp.List.Items, slots, "pods stored")
	assert.Equal(t, slots, admitted)
	assert.Equal(t, fmt.Sprint(slots), ts.getQuota(t, "pod-count").Status.Used.Pods().String(), "status.used")
}

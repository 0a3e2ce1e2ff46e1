package apiserver

import (
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
	ts.create(t, quota("pod-count", map[string]string{"pods": "2"}))
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

func TestQuotaNamesEveryExceededResourceSorted(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, quota("compute-resources", map[string]string{"pods": "2", "limits.cpu": "1", "requests.memory": "1Gi"}))
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
	ts.create(t, quota("compute-resources", map[string]string{"pods": "5", "limits.cpu": "2", "limits.memory": "2Gi"}))

	err := ts.createPod(t, nginxPod("bare"), false)
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err))
	assert.Equal(t, `pods "bare" is forbidden: failed quota: compute-resources: must specify limits.cpu for: nginx; limits.memory for: nginx`, err.Error())

	limitsOnly := nginxPod("limits-only")
	limitsOnly.Spec.Containers[0].Resources.Limits = resource.ResourceList{
		resource.ResourceCPU: resource.MustParse("500m"), resource.ResourceMemory: resource.MustParse("128Mi")}
	require.NoError(t, ts.createPod(t, limitsOnly, false), "limits alone satisfy a limits-only quota")
}

func TestQuotaIgnoresFinishedPodsAndDryRunsCountNothing(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, quota("one-pod", map[string]string{"count/pods": "1"}))
	require.NoError(t, ts.createPod(t, nginxPod("dry"), true))
	require.NoError(t, ts.createPod(t, nginxPod("dry"), true), "a dry run took no slot")
	require.NoError(t, ts.createPod(t, nginxPod("job"), false))
	err := ts.createPod(t, nginxPod("next"), false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeded quota: one-pod, requested: count/pods=1, used: count/pods=1, limited: count/pods=1")

	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "job"})
	require.NoError(t, err)
	done := api.DeepCopy(resp.Object.(*api.Pod))
	done.Status.Phase = api.PodSucceeded
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Name: "job", Body: done})
	require.NoError(t, err)
	assert.NoError(t, ts.createPod(t, nginxPod("next"), false), "a Succeeded pod no longer counts")
}

func TestPodsCreatedBeforeTheQuotaCountAgainstIt(t *testing.T) {
	ts := newTestServer(t)
	require.NoError(t, ts.createPod(t, nginxPod("before"), false))
	ts.create(t, quota("pod-count", map[string]string{"pods": "1"}))
	err := ts.createPod(t, nginxPod("after"), false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "used: pods=1, limited: pods=1")
}

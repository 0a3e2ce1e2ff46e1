package scheduler_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
)

func withClaim(name string) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: name, VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: name}}})
	}
}

// VolumeBinding rejects at PreFilter a pod whose claim is missing or unbound and Immediate: every
// node for the same reason. DynamicResources' PreFilter never ran, so its PostFilter fails before
// preemption is tried, and the message ends in Kubernetes 1.34's bare "not found". A claim bound to a volume with node affinity
// keeps the pod on that volume's node.
func TestVolumeBindingPlacesPodsByTheirClaims(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi")
	e.addNode("node-2", "4", "8Gi")

	e.create(newPod("orphan", "100m", "", withClaim("missing")))
	assert.Equal(t, `0/2 nodes are available: persistentvolumeclaim "missing" not found. not found`,
		e.runUntilFailed("orphan"))

	claims := client.For[api.PersistentVolumeClaim](e.admin)
	data := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			Resources: api.VolumeResourceRequirements{Requests: resource.ResourceList{resource.ResourceStorage: resource.MustParse("1Gi")}}}}
	_, err := claims.Create(e.ctx, data)
	require.NoError(t, err)
	e.create(newPod("db", "100m", "", withClaim("data")))
	assert.Equal(t, "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found",
		e.runUntilFailed("db"))

	// An administrator binds the claim by hand to a volume that only node-2 reaches (no PV
	// controller runs here). Naming the volume is not enough: as in Kubernetes the claim is bound
	// once the binding is complete (the pv.kubernetes.io/bind-completed annotation the PV
	// controller writes). Then the claim's update brings the pod back, and it lands on node-2.
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "disk"}, Spec: api.PersistentVolumeSpec{
		Capacity: data.Spec.Resources.Requests, AccessModes: data.Spec.AccessModes,
		PersistentVolumeSource: api.PersistentVolumeSource{Local: &api.LocalVolumeSource{Path: "/mnt/disk"}},
		NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelHostname, Operator: api.NodeSelectorOpIn, Values: []string{"node-2"}}}}}}}}}
	_, err = client.For[api.PersistentVolume](e.admin).Create(e.ctx, pv)
	require.NoError(t, err)
	got, err := claims.Get(e.ctx, "default", "data")
	require.NoError(t, err)
	got.Spec.VolumeName = "disk"
	got, err = claims.Update(e.ctx, got)
	require.NoError(t, err)
	e.runUntil("db rejected again", func() bool {
		for _, ev := range e.events("db") {
			if ev.Reason == "FailedScheduling" && ev.Count >= 2 {
				assert.Contains(t, ev.Message, "pod has unbound immediate PersistentVolumeClaims")
				return true
			}
		}
		return false
	})
	assert.Empty(t, e.get("db").Spec.NodeName)
	got.SetAnnotation(api.AnnBindCompleted, "yes")
	_, err = claims.Update(e.ctx, got)
	require.NoError(t, err)
	assert.Equal(t, "node-2", e.runUntilBound("db"))
}

package plugins_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

// storage is a framework.VolumeLister over fixed objects.
type storage struct {
	claims  []*api.PersistentVolumeClaim
	volumes []*api.PersistentVolume
}

func (s storage) Claim(namespace, name string) (*api.PersistentVolumeClaim, bool) {
	for _, c := range s.claims {
		if c.Namespace == namespace && c.Name == name {
			return c, true
		}
	}
	return nil, false
}

func (s storage) Volume(name string) (*api.PersistentVolume, bool) {
	for _, v := range s.volumes {
		if v.Name == name {
			return v, true
		}
	}
	return nil, false
}

func (s storage) Volumes() []*api.PersistentVolume     { return s.volumes }
func (storage) Class(string) (*api.StorageClass, bool) { return nil, false }

func boundClaim(name, volume string, mode api.PersistentVolumeAccessMode) *api.PersistentVolumeClaim {
	return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default",
		Annotations: map[string]string{api.AnnBindCompleted: "yes"}},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{mode}, VolumeName: volume}}
}

func mounting(p *api.Pod, claim string) *api.Pod {
	p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: claim, VolumeSource: api.VolumeSource{
		PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}})
	return p
}

func storageFramework(t *testing.T, s storage, nodes ...*framework.NodeInfo) *framework.Framework {
	t.Helper()
	f, err := framework.NewFramework(plugins.NewInTreeRegistry(), plugins.DefaultProfile(""), framework.Options{Volumes: s})
	require.NoError(t, err)
	f.SetCycle(framework.NewSnapshot(nodes), nil)
	return f
}

// A ReadWriteOncePod claim in use rejects every node (Unschedulable: preemption may help), until
// preemption imagines its holder gone.
func TestVolumeRestrictionsKeepsAReadWriteOncePodClaimToOnePod(t *testing.T) {
	s := storage{claims: []*api.PersistentVolumeClaim{boundClaim("journal", "journal-pv", api.ReadWriteOncePod)},
		volumes: []*api.PersistentVolume{{ObjectMeta: api.ObjectMeta{Name: "journal-pv"}}}}
	holder := framework.NewPodInfo(mounting(pod("writer-1", "", nil), "journal"))
	n1, n2 := node("node-1", "2").WithPod(holder), node("node-2", "2")
	f := storageFramework(t, s, n1, n2)
	second := mounting(pod("writer-2", "", nil), "journal")

	state := framework.NewCycleState()
	_, st, _ := f.RunPreFilterPlugins(context.Background(), state, second)
	require.True(t, st.IsSuccess())
	st = f.RunFilterPlugins(context.Background(), state, second, n2)
	assert.Equal(t, framework.Unschedulable, st.Code())
	assert.Equal(t, plugins.VolumeRestrictionsName, st.Plugin())
	assert.Equal(t, []string{plugins.ErrReasonReadWriteOncePodConflict}, st.Reasons())

	without, _ := n1.WithoutPod(holder.Pod.UID)
	require.True(t, f.RunPreFilterExtensionRemovePod(context.Background(), state, second, holder, without).IsSuccess())
	assert.True(t, f.RunFilterPlugins(context.Background(), state, second, without).IsSuccess())

	// A claim that does not exist: rejected at PreFilter, by the first volume plugin.
	_, st, _ = f.RunPreFilterPlugins(context.Background(), framework.NewCycleState(), mounting(pod("lost", "", nil), "nope"))
	assert.Equal(t, framework.UnschedulableAndUnresolvable, st.Code())
	assert.Equal(t, plugins.VolumeRestrictionsName, st.Plugin())
	assert.Equal(t, `persistentvolumeclaim "nope" not found`, st.Message())
}

// A volume labelled with zones keeps its pods in them; a node with no zone or region label passes.
func TestVolumeZoneMatchesTheVolumesZoneLabels(t *testing.T) {
	s := storage{claims: []*api.PersistentVolumeClaim{boundClaim("data", "data-pv", api.ReadWriteOnce)},
		volumes: []*api.PersistentVolume{{ObjectMeta: api.ObjectMeta{Name: "data-pv",
			Labels: map[string]string{"failure-domain.beta.kubernetes.io/zone": "zone-a__zone-b"}}}}}
	inZone := func(z string) func(*api.Node) { return func(n *api.Node) { n.Labels[api.LabelTopologyZone] = z } }
	a, b, c, none := node("a", "2", inZone("zone-a")), node("b", "2", inZone("zone-b")), node("c", "2", inZone("zone-c")), node("none", "2")
	f := storageFramework(t, s, a, b, c, none)
	p := mounting(pod("db", "", nil), "data")
	for _, ni := range []*framework.NodeInfo{a, b, none} {
		assert.True(t, filter(t, f, p, ni).IsSuccess(), ni.Name())
	}
	st := filter(t, f, p, c)
	assert.Equal(t, framework.UnschedulableAndUnresolvable, st.Code())
	assert.Equal(t, plugins.VolumeZoneName, st.Plugin())
	assert.Equal(t, plugins.ErrReasonVolumeZoneConflict, st.Message())
}

// A claim that names its volume is bound only once the binding is complete: before, the pod waits.
func TestVolumeBindingWaitsForACompleteBinding(t *testing.T) {
	prebound := boundClaim("data", "data-pv", api.ReadWriteOnce)
	prebound.Annotations = nil
	f := storageFramework(t, storage{claims: []*api.PersistentVolumeClaim{prebound},
		volumes: []*api.PersistentVolume{{ObjectMeta: api.ObjectMeta{Name: "data-pv"}}}}, node("node-1", "2"))
	_, st, _ := f.RunPreFilterPlugins(context.Background(), framework.NewCycleState(), mounting(pod("db", "", nil), "data"))
	assert.Equal(t, plugins.VolumeBindingName, st.Plugin())
	assert.Equal(t, plugins.ErrReasonUnboundImmediate, st.Message())
}

package persistentvolume_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/controllers/persistentvolume"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

func claim(name string, class *string) *api.PersistentVolumeClaim {
	return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			StorageClassName: class,
			Resources: api.VolumeResourceRequirements{Requests: resource.ResourceList{
				resource.ResourceStorage: resource.MustParse("1Gi")}}}}
}

func podUsing(name, claimName string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}},
			Volumes: []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{
				PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claimName}}}}}}
}

func localPath(mode api.VolumeBindingMode) *api.StorageClass {
	return &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "local-path",
		Annotations: map[string]string{api.AnnIsDefaultStorageClass: "true"}},
		Provisioner: "rancher.io/local-path", VolumeBindingMode: &mode}
}

// reasons lists the reasons of the events about an object, oldest first.
func reasons(ctx context.Context, t *testing.T, c *sim.Cluster, name string) []string {
	events, _, err := client.For[api.Event](c.Kubectl.Client()).List(ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	var out []string
	for _, e := range events {
		if e.InvolvedObject.Name == name {
			out = append(out, e.Reason)
		}
	}
	return out
}

// A claim of a WaitForFirstConsumer class waits for its pod; the scheduler picks the node, the
// provisioner makes a local volume there, and the binder binds it (the local-path flow of kind and k3s).
func TestWaitForFirstConsumerProvisionsOnThePodsNode(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Full(2))
	_, err := c.Kubectl.Create(ctx, localPath(api.VolumeBindingWaitForFirstConsumer))
	require.NoError(t, err)
	_, err = c.Kubectl.Create(ctx, claim("data", nil))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 200))
	claims := client.For[api.PersistentVolumeClaim](c.Kubectl.Client())
	got, err := claims.Get(ctx, "default", "data")
	require.NoError(t, err)
	assert.Equal(t, "local-path", api.ClaimClass(got), "the default class is given after the fact")
	assert.Equal(t, api.ClaimPending, got.Status.Phase)
	assert.Equal(t, []string{"WaitForFirstConsumer"}, reasons(ctx, t, c, "data"))

	_, err = c.Kubectl.Create(ctx, podUsing("app", "data"))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "pod app running", func() (bool, error) {
		p, err := client.For[api.Pod](c.Kubectl.Client()).Get(ctx, "default", "app")
		return err == nil && p.Status.Phase == api.PodRunning, nil
	}, 2000))
	pod, err := client.For[api.Pod](c.Kubectl.Client()).Get(ctx, "default", "app")
	require.NoError(t, err)
	got, err = claims.Get(ctx, "default", "data")
	require.NoError(t, err)
	assert.Equal(t, api.ClaimBound, got.Status.Phase)
	assert.Equal(t, pod.Spec.NodeName, got.Annotations[api.AnnSelectedNode])
	assert.Equal(t, "pvc-"+string(got.UID), got.Spec.VolumeName)
	pv, err := client.For[api.PersistentVolume](c.Kubectl.Client()).Get(ctx, "", got.Spec.VolumeName)
	require.NoError(t, err)
	assert.Equal(t, api.VolumeBound, pv.Status.Phase)
	assert.Equal(t, api.PersistentVolumeReclaimDelete, pv.Spec.PersistentVolumeReclaimPolicy, "the class's default")
	assert.Equal(t, []string{pod.Spec.NodeName}, pv.Spec.NodeAffinity.Required.NodeSelectorTerms[0].MatchExpressions[0].Values)
	assert.Equal(t, []string{"WaitForFirstConsumer", "ExternalProvisioning", "Provisioning", "ProvisioningSucceeded"},
		reasons(ctx, t, c, "data"))

	// The pod and the claim go: the volume's reclaim policy is Delete, so it goes too.
	require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", "app", client.DeleteOptions{}))
	require.NoError(t, c.Kubectl.Delete(ctx, "persistentvolumeclaims", "default", "data", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunIdle(ctx, 500))
	_, err = client.For[api.PersistentVolume](c.Kubectl.Client()).Get(ctx, "", pv.Name)
	assert.Error(t, err, "the provisioned volume is deleted with its claim")
}

// A claim of an Immediate class is provisioned and bound before any pod uses it; a claim with no
// class and no volume stays Pending, with one FailedBinding event (counted up at each resync).
func TestImmediateClaimsBindAtOnceAndClasslessOnesWait(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Full(1))
	_, err := c.Kubectl.Create(ctx, localPath(api.VolumeBindingImmediate))
	require.NoError(t, err)
	_, err = c.Kubectl.Create(ctx, claim("fast", api.Ptr("local-path")))
	require.NoError(t, err)
	_, err = c.Kubectl.Create(ctx, claim("none", api.Ptr("")))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 300))
	claims := client.For[api.PersistentVolumeClaim](c.Kubectl.Client())
	fast, err := claims.Get(ctx, "default", "fast")
	require.NoError(t, err)
	assert.Equal(t, api.ClaimBound, fast.Status.Phase)
	pv, err := client.For[api.PersistentVolume](c.Kubectl.Client()).Get(ctx, "", fast.Spec.VolumeName)
	require.NoError(t, err)
	assert.NotNil(t, pv.Spec.HostPath, "no node was selected: a host path volume without node affinity")
	none, err := claims.Get(ctx, "default", "none")
	require.NoError(t, err)
	assert.Equal(t, api.ClaimPending, none.Status.Phase)
	assert.Equal(t, []string{"FailedBinding"}, reasons(ctx, t, c, "none"))
}

// A claim made before the volume that fits it binds at the PV controller's next resync (every 15 s,
// --pvclaimbinder-sync-period), not when the volume appears: pkg/controller/volume/persistentvolume
// queues a new volume alone (pv_controller_base.go), and only resync() brings the waiting claims
// back. Each resync repeats the claim's FailedBinding event.
func TestAClaimBindsToANewVolumeAtTheNextResync(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Full(1))
	_, err := c.Kubectl.Create(ctx, claim("data", api.Ptr("")))
	require.NoError(t, err)
	require.NoError(t, c.Driver.Advance(ctx, persistentvolume.ResyncPeriod+time.Second))
	claims := client.For[api.PersistentVolumeClaim](c.Kubectl.Client())
	got, err := claims.Get(ctx, "default", "data")
	require.NoError(t, err)
	require.Equal(t, api.ClaimPending, got.Status.Phase)
	failedBinding := func() int32 {
		events, _, err := client.For[api.Event](c.Kubectl.Client()).List(ctx, "default", client.ListOptions{})
		require.NoError(t, err)
		for _, e := range events {
			if e.InvolvedObject.Name == "data" && e.Reason == "FailedBinding" {
				return e.Count
			}
		}
		return 0
	}
	assert.Equal(t, int32(2), failedBinding(), "FailedBinding at the claim's first sync, again at the resync")

	_, err = c.Kubectl.Create(ctx, &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "data-pv"},
		Spec: api.PersistentVolumeSpec{Capacity: resource.ResourceList{resource.ResourceStorage: resource.MustParse("5Gi")},
			AccessModes:            []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			PersistentVolumeSource: api.PersistentVolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/mnt/data"}}}})
	require.NoError(t, err)
	created := c.Clock.Now()
	require.NoError(t, c.Driver.Advance(ctx, time.Second))
	got, err = claims.Get(ctx, "default", "data")
	require.NoError(t, err)
	assert.Equal(t, api.ClaimPending, got.Status.Phase, "the new volume does not wake the claim")
	pv, err := client.For[api.PersistentVolume](c.Kubectl.Client()).Get(ctx, "", "data-pv")
	require.NoError(t, err)
	assert.Equal(t, api.VolumeAvailable, pv.Status.Phase)

	require.NoError(t, c.Driver.RunUntil(ctx, "claim data Bound", func() (bool, error) {
		got, err := claims.Get(ctx, "default", "data")
		return err == nil && got.Status.Phase == api.ClaimBound, nil
	}, 0))
	assert.LessOrEqual(t, c.Clock.Since(created), persistentvolume.ResyncPeriod, "bound at the next resync")
	assert.Equal(t, "data-pv", func() string { got, _ := claims.Get(ctx, "default", "data"); return got.Spec.VolumeName }())
}

package apiserver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
)

// Every pod gets a kube-api-access-xxxxx volume, mounted read-only at the service account path in
// each of its containers, init containers included: its token, the cluster's CA and its namespace,
// as Kubernetes' ServiceAccount admission plugin gives them.
func TestServiceAccountAdmissionMountsTheAPIAccessVolume(t *testing.T) {
	ts := newTestServer(t)
	pod := nginxPod("web")
	pod.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox:1.36"}}
	got := ts.create(t, pod).(*api.Pod)

	require.Len(t, got.Spec.Volumes, 1)
	v := got.Spec.Volumes[0]
	assert.True(t, strings.HasPrefix(v.Name, "kube-api-access-") && len(v.Name) == len("kube-api-access-")+5, v.Name)
	require.NotNil(t, v.Projected)
	assert.Equal(t, &api.ProjectedVolumeSource{
		DefaultMode: api.Ptr[int32](420),
		Sources: []api.VolumeProjection{
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: api.Ptr[int64](3607)}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items: []api.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "namespace",
				FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		}}, v.Projected)
	want := []api.VolumeMount{{Name: v.Name, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}}
	assert.Equal(t, want, got.Spec.InitContainers[0].VolumeMounts)
	assert.Equal(t, want, got.Spec.Containers[0].VolumeMounts)

	other := ts.create(t, nginxPod("other")).(*api.Pod)
	assert.NotEqual(t, v.Name, other.Spec.Volumes[0].Name, "each pod's volume has a name of its own")
}

// automountServiceAccountToken: the pod's says first, then its service account's; a container
// that mounts something at the path already keeps it, and a pod none of whose containers needs the
// volume does not get it. A pod without imagePullSecrets takes its service account's.
func TestServiceAccountAdmissionRespectsAutomountAndExistingMounts(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "quiet", Namespace: "default"},
		AutomountServiceAccountToken: api.Ptr(false)})
	require.NoError(t, ts.WaitForRevision(t.Context(), ts.Revision()))

	off := nginxPod("off")
	off.Spec.AutomountServiceAccountToken = api.Ptr(false)
	assert.Empty(t, ts.create(t, off).(*api.Pod).Spec.Volumes, "the pod says false")

	bySA := nginxPod("by-sa")
	bySA.Spec.ServiceAccountName = "quiet"
	assert.Empty(t, ts.create(t, bySA).(*api.Pod).Spec.Volumes, "its service account says false")

	podWins := nginxPod("pod-wins")
	podWins.Spec.ServiceAccountName = "quiet"
	podWins.Spec.AutomountServiceAccountToken = api.Ptr(true)
	assert.Len(t, ts.create(t, podWins).(*api.Pod).Spec.Volumes, 1, "the pod's true beats its service account's false")

	ts.create(t, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "puller", Namespace: "default"},
		ImagePullSecrets: []api.LocalObjectReference{{Name: "registry"}}})
	require.NoError(t, ts.WaitForRevision(t.Context(), ts.Revision()))
	pulls := nginxPod("pulls")
	pulls.Spec.ServiceAccountName = "puller"
	assert.Equal(t, []api.LocalObjectReference{{Name: "registry"}}, ts.create(t, pulls).(*api.Pod).Spec.ImagePullSecrets,
		"a pod without imagePullSecrets gets its service account's")

	own := nginxPod("own-token")
	own.Spec.Volumes = []api.Volume{{Name: "mine", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}}}
	own.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "mine", MountPath: ServiceAccountTokenMountPath}}
	got := ts.create(t, own).(*api.Pod)
	assert.Equal(t, []string{"mine"}, volumeNames(got), "no container needs the volume")
	assert.Len(t, got.Spec.Containers[0].VolumeMounts, 1)
}

// A mirror pod is left as its kubelet wrote it: no service account, no token volume (its spec is the
// static pod's, and the kubelet would replace a mirror pod that differs from it).
func TestServiceAccountAdmissionLeavesMirrorPodsAlone(t *testing.T) {
	ts := newTestServer(t)
	mirror := nginxPod("static-node-1")
	mirror.Annotations = map[string]string{mirrorPodAnnotation: "hash"}
	got := ts.create(t, mirror).(*api.Pod)
	assert.Empty(t, got.Spec.ServiceAccountName)
	assert.Empty(t, got.Spec.Volumes)
	assert.Empty(t, got.Spec.Containers[0].VolumeMounts)
}

// A projected token shorter than 10 minutes is refused, as Kubernetes' validation words it.
func TestAProjectedTokenMustLiveTenMinutes(t *testing.T) {
	ts := newTestServer(t)
	pod := nginxPod("short")
	pod.Spec.Volumes = []api.Volume{{Name: "token", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{
		Sources: []api.VolumeProjection{{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: api.Ptr[int64](100)}}}}}}}
	err := ts.createPod(t, pod, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 100: may not specify a duration less than 10 minutes`)
}

func volumeNames(p *api.Pod) []string {
	var names []string
	for _, v := range p.Spec.Volumes {
		names = append(names, v.Name)
	}
	return names
}

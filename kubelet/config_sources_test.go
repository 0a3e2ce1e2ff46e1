package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
)

// A container whose env names a ConfigMap that does not exist is not created: it waits with
// CreateContainerConfigError and the kubelet's own message (pkg/kubelet/kubelet_pods.go
// makeEnvironmentVariables), an event "Error: ..." is recorded, and once the ConfigMap exists the
// next sync starts it. An optional reference to a missing Secret is skipped.
func TestMissingConfigMapIsCreateContainerConfigErrorUntilItExists(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("app", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{
		{Name: "LOG_LEVEL", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{
			LocalObjectReference: api.LocalObjectReference{Name: "app-config"}, Key: "log.level"}}},
		{Name: "TOKEN", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{
			LocalObjectReference: api.LocalObjectReference{Name: "absent"}, Key: "token", Optional: api.Ptr(true)}}},
	}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "app waits", func() bool {
		w := containerStatus(getPod(t, ctx, c, "app")).State.Waiting
		return w != nil && w.Reason == "CreateContainerConfigError"
	})
	w := containerStatus(getPod(t, ctx, c, "app")).State.Waiting
	assert.Equal(t, `configmap "app-config" not found`, w.Message)
	assert.Contains(t, events(t, ctx, c, "app"), `Failed: Error: configmap "app-config" not found`)

	// The ConfigMap exists, but without the key.
	cms := client.For[api.ConfigMap](admin(c))
	cm, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "app-config", Namespace: "default"},
		Data: map[string]string{"other": "x"}})
	require.NoError(t, err)
	require.NoError(t, c.Driver.Advance(ctx, 15*time.Second))
	w = containerStatus(getPod(t, ctx, c, "app")).State.Waiting
	require.NotNil(t, w)
	assert.Equal(t, "couldn't find key log.level in ConfigMap default/app-config", w.Message)

	cm.Data["log.level"] = "debug"
	_, err = cms.Update(ctx, cm)
	require.NoError(t, err)
	runUntil(t, ctx, c, "app running", func() bool { return containerStatus(getPod(t, ctx, c, "app")).State.Running != nil })
}

// A configMap volume that cannot be found keeps the pod in ContainerCreating with FailedMount
// (`MountVolume.SetUp failed for volume "config" : configmap "web-config" not found`); no sandbox
// is started until it can be mounted.
func TestMissingConfigMapVolumeIsFailedMount(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("web", "node-1", "nginx:1.25")
	p.Spec.Volumes = []api.Volume{{Name: "config", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{
		LocalObjectReference: api.LocalObjectReference{Name: "web-config"}}}}}
	p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "config", MountPath: "/etc/web"}}
	createPod(t, ctx, c, p)
	require.NoError(t, c.Driver.Advance(ctx, 10*time.Second))
	got := getPod(t, ctx, c, "web")
	assert.Empty(t, got.Status.PodIP, "no sandbox yet")
	assert.Contains(t, events(t, ctx, c, "web"), `FailedMount: MountVolume.SetUp failed for volume "config" : configmap "web-config" not found`)

	_, err := client.For[api.ConfigMap](admin(c)).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "web-config", Namespace: "default"}})
	require.NoError(t, err)
	runUntil(t, ctx, c, "web running", func() bool { return containerStatus(getPod(t, ctx, c, "web")).State.Running != nil })
}

// Every pod's kube-api-access volume projects the namespace's kube-root-ca.crt: without it (no
// kube-controller-manager to put it back) the pod waits with FailedMount naming the volume, as a pod
// in a brand-new namespace does for a moment on a real cluster.
func TestAPodWaitsForItsNamespacesRootCAConfigMap(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	cms := client.For[api.ConfigMap](admin(c))
	ca, _, err := cms.Delete(ctx, "default", "kube-root-ca.crt", client.DeleteOptions{})
	require.NoError(t, err)
	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	require.NoError(t, c.Driver.Advance(ctx, 10*time.Second))
	got := getPod(t, ctx, c, "web")
	require.Len(t, got.Spec.Volumes, 1)
	assert.Empty(t, got.Status.PodIP, "no sandbox yet")
	assert.Contains(t, events(t, ctx, c, "web"), `FailedMount: MountVolume.SetUp failed for volume "`+got.Spec.Volumes[0].Name+`" : configmap "kube-root-ca.crt" not found`)

	_, err = cms.Create(ctx, api.RootCAConfigMapFor("default", []byte(ca.Data["ca.crt"])))
	require.NoError(t, err)
	runUntil(t, ctx, c, "web running", func() bool { return containerStatus(getPod(t, ctx, c, "web")).State.Running != nil })
}

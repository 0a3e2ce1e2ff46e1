package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
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

// configMap and secret volumes are projected into files the container's shell reads: every key under
// the mount's path, a volume's items at their paths, a subPath mount as one file; an exec readiness
// probe that cats a projected file passes. (Kubernetes: pkg/volume/configmap, pkg/volume/secret,
// pkg/volume/util AtomicWriter.)
func TestConfigMapAndSecretVolumesAreFilesTheShellReads(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	_, err := c.Kubectl.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "game", Namespace: "default"},
		Data: map[string]string{"game.properties": "lives=3\nlevel=7\n", "ui.properties": "color=blue"}})
	require.NoError(t, err)
	_, err = c.Kubectl.Create(ctx, &api.Secret{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Data: map[string][]byte{"password": []byte("s3cret"), "user": []byte("admin")}})
	require.NoError(t, err)
	p := newPod("game", "node-1", "busybox:1.36")
	p.Spec.Volumes = []api.Volume{
		{Name: "config", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{LocalObjectReference: api.LocalObjectReference{Name: "game"}}}},
		{Name: "creds", VolumeSource: api.VolumeSource{Secret: &api.SecretVolumeSource{SecretName: "db",
			Items: []api.KeyToPath{{Key: "password", Path: "db/pass"}}}}},
	}
	ctr := &p.Spec.Containers[0]
	ctr.VolumeMounts = []api.VolumeMount{
		{Name: "config", MountPath: "/etc/config"},
		{Name: "creds", MountPath: "/etc/creds"},
		{Name: "config", MountPath: "/app/ui.conf", SubPath: "ui.properties"},
	}
	ctr.Command = []string{"sh", "-c", "cat /etc/config/game.properties /etc/creds/db/pass /app/ui.conf; cat /etc/creds/user; sleep 3600"}
	ctr.ReadinessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"cat", "/etc/config/ui.properties"}}}}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "game Ready", func() bool { return condition(getPod(t, ctx, c, "game"), api.PodReady) == api.ConditionTrue })
	_, id, _ := strings.Cut(containerStatus(getPod(t, ctx, c, "game")).ContainerID, "://")
	lines, err := node.rt.ContainerLogs(ctx, id, -1)
	require.NoError(t, err)
	var got []string
	for _, l := range lines {
		got = append(got, l.Log)
	}
	assert.Equal(t, []string{"lives=3", "level=7", "s3cret", "color=blue", "cat: can't open '/etc/creds/user': No such file or directory"}, got,
		"the secret's items project only db/pass")
}

// A ConfigMap edited while its pod runs reaches the container's files at the pod's next sync, the
// periodic one for a running pod (syncFrequency, 1 minute, plus up to 50% of jitter): nothing
// about a ConfigMap wakes the pod. A loop that cats the file prints the old value until then. A
// subPath mount of the same key keeps the old value.
func TestAnEditedConfigMapReachesTheFilesAtThePodsNextSync(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	cm, err := c.Kubectl.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "game", Namespace: "default"},
		Data: map[string]string{"level": "7"}})
	require.NoError(t, err)
	p := newPod("game", "node-1", "busybox:1.36")
	p.Spec.Volumes = []api.Volume{{Name: "config", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{
		LocalObjectReference: api.LocalObjectReference{Name: "game"}}}}}
	ctr := &p.Spec.Containers[0]
	ctr.VolumeMounts = []api.VolumeMount{{Name: "config", MountPath: "/etc/config"},
		{Name: "config", MountPath: "/etc/level", SubPath: "level"}}
	ctr.Command = []string{"sh", "-c", "while true; do cat /etc/config/level; cat /etc/level >&2; sleep 5; done"}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "game running", func() bool { return containerStatus(getPod(t, ctx, c, "game")).State.Running != nil })
	require.NoError(t, c.Driver.Advance(ctx, 20*time.Second))

	edited := cm.(*api.ConfigMap)
	edited.Data = map[string]string{"level": "8"}
	_, err = client.For[api.ConfigMap](c.Kubectl.Client()).Update(ctx, edited)
	require.NoError(t, err)
	editedAt := c.Clock.Now()
	require.NoError(t, c.Driver.Advance(ctx, 2*time.Minute))

	_, id, _ := strings.Cut(containerStatus(getPod(t, ctx, c, "game")).ContainerID, "://")
	lines, err := node.rt.ContainerLogs(ctx, id, -1)
	require.NoError(t, err)
	var first time.Time // the first line with the new value
	for _, l := range lines {
		if l.Stream == "stderr" {
			assert.Equal(t, "7", l.Log, "the subPath file at %s", l.Time)
			continue
		}
		switch l.Log {
		case "8":
			if first.IsZero() {
				first = l.Time
			}
		case "7":
			assert.True(t, first.IsZero(), "the old value after the new one, at %s", l.Time)
		default:
			t.Errorf("unexpected line %q", l.Log)
		}
	}
	require.False(t, first.IsZero(), "the new value never reached the container")
	t.Logf("edited at %s, first new line %s later", editedAt.Sub(sim.Epoch), first.Sub(editedAt))
	assert.True(t, first.After(editedAt), "not before the edit")
	assert.LessOrEqual(t, first.Sub(editedAt), 90*time.Second+5*time.Second, "within the periodic sync (and the loop's 5 s)")
	assert.Greater(t, first.Sub(editedAt), 5*time.Second, "not at once: nothing about a ConfigMap wakes the pod")
}

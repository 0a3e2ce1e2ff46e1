package kubectl_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/scenarios/manifests"
)

// kubectl describe: the object as a person reads it, and the Events about it at the end.
func TestDescribeShowsTheObjectAndItsEvents(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()
	c.rolledOut()

	out, err := c.k.Describe(c.ctx, "deployment", "default", "nginx")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Replicas: +3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable$`, out)
	assert.Regexp(t, `(?m)^StrategyType: +RollingUpdate$`, out)
	assert.Regexp(t, `(?m)^RollingUpdateStrategy: +25% max unavailable, 25% max surge$`, out)
	assert.Regexp(t, `(?m)^OldReplicaSets: +<none>$`, out)
	assert.Regexp(t, `(?m)^NewReplicaSet: +nginx-[a-z0-9]+ \(3/3 replicas created\)$`, out)
	assert.Regexp(t, `(?m)^  Normal +ScalingReplicaSet +\d+s +deployment-controller +Scaled up replica set nginx-[a-z0-9]+ from 0 to 3$`, out)

	pods, _, err := client.For[api.Pod](c.k.Client()).List(c.ctx, "default", client.ListOptions{LabelSelector: "app=nginx"})
	require.NoError(t, err)
	pod := pods[0]
	out, err = c.k.Describe(c.ctx, "po", "default", pod.Name)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Status: +Running$`, out)
	assert.Regexp(t, `(?m)^Controlled By: +ReplicaSet/nginx-[a-z0-9]+$`, out)
	assert.Regexp(t, `(?m)^    Image: +nginx:1.25$`, out)
	assert.Regexp(t, `(?m)^Events:\n +Type +Reason +Age +From +Message\n +---- +------ +---- +---- +-------\n  Normal +Scheduled .* default-scheduler +Successfully assigned default/`+pod.Name+` to `+pod.Spec.NodeName+`$`, out)

	require.NoError(t, c.k.Cordon(c.ctx, "node-2"))
	out, err = c.k.Describe(c.ctx, "node", "", "node-2")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^Unschedulable: +true$`, out)
	assert.Regexp(t, `(?m)^  Ready +True +KubeletReady `, out)
}

// kubectl describe pod: each container as kubectl prints it (pkg/describe's describeContainers), in
// its order: IDs, image, ports, command and args, state, resources, then the probes with their
// timings, which a learner reads when a probe restarts a container.
func TestDescribePodShowsContainersAsKubectlDoes(t *testing.T) {
	c := newCluster(t)
	_, err := c.k.Apply(c.ctx, []byte(`apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx:1.25
    command: ["nginx"]
    args: ["-g", "daemon off;"]
    ports:
    - {name: http, containerPort: 80}
    - containerPort: 9090
    resources:
      requests: {cpu: 250m, memory: 64Mi}
      limits: {memory: 128Mi}
    livenessProbe:
      httpGet: {path: /healthz, port: http}
      initialDelaySeconds: 3
      periodSeconds: 3
    readinessProbe:
      tcpSocket: {port: 80}
    startupProbe:
      exec: {command: ["cat", "/tmp/ready"]}
      failureThreshold: 30
`))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(c.ctx, "web running", func() (bool, error) {
		p, err := client.For[api.Pod](c.k.Client()).Get(c.ctx, "default", "web")
		return err == nil && len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].ContainerID != "", err
	}, 0))

	out, err := c.k.Describe(c.ctx, "pod", "default", "web")
	require.NoError(t, err)
	start := strings.Index(out, "Containers:\n")
	require.GreaterOrEqual(t, start, 0, out)
	var got []string
	for _, l := range lines(out[start:])[1:] {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		got = append(got, regexp.MustCompile(` +`).ReplaceAllString(strings.TrimRight(l, " "), " "))
	}
	require.GreaterOrEqual(t, len(got), 24, out)
	assert.Regexp(t, `^ Container ID: containerd://[0-9a-f]{64}$`, got[1])
	assert.Regexp(t, `^ Image ID: docker.io/library/nginx@sha256:[0-9a-f]{64}$`, got[3])
	got[1], got[3] = " Container ID: ...", " Image ID: ..."
	assert.Equal(t, []string{
		" web:",
		" Container ID: ...",
		" Image: nginx:1.25",
		" Image ID: ...",
		" Ports: 80/TCP (http), 9090/TCP",
		" Host Ports: 0/TCP (http), 0/TCP",
		" Command:",
		" nginx",
		" Args:",
		" -g",
		" daemon off;",
	}, got[:11])
	rest := strings.Join(got[11:], "\n")
	assert.Contains(t, rest, " Limits:\n memory: 128Mi\n Requests:\n cpu: 250m\n memory: 64Mi\n"+
		" Liveness: http-get http://:http/healthz delay=3s timeout=1s period=3s #success=1 #failure=3\n"+
		" Readiness: tcp-socket :80 delay=0s timeout=1s period=10s #success=1 #failure=3\n"+
		" Startup: exec [cat /tmp/ready] delay=0s timeout=1s period=10s #success=1 #failure=30\n"+
		" Environment: <none>\n Mounts:\n")
}

// kubectl describe pod of a crash-looping container: its last termination as kubectl prints it,
// with when it started and finished, beside the Waiting state's reason.
func TestDescribePodShowsTheLastTermination(t *testing.T) {
	c := newCluster(t)
	_, err := c.k.Apply(c.ctx, []byte(manifests.Read("crasher.yaml")))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(c.ctx, "crasher restarted", func() (bool, error) {
		p, err := client.For[api.Pod](c.k.Client()).Get(c.ctx, "default", "crasher")
		return err == nil && len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].LastTerminationState.Terminated != nil, err
	}, 0))
	out, err := c.k.Describe(c.ctx, "pod", "default", "crasher")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^    Last State: +Terminated\n      Reason: +Error\n      Exit Code: +1\n      Started: +\w{3}, \d\d \w{3} \d{4} [\d:]{8} \+0000\n      Finished: +\w{3}, \d\d \w{3} \d{4} [\d:]{8} \+0000\n    Ready: +False\n    Restart Count: +[1-9]`, out)
}

package script_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/narrate"
	"kubesim/scenarios/manifests"
	"kubesim/script"
	"kubesim/sim"
)

// playFile plays a scenario file's text in step mode, with files read from testdata/scenarios, and
// returns its story (text, unwrapped) and verdict.
func playFile(t *testing.T, yaml string) (string, error) {
	return playIn(t, "testdata/scenarios", yaml)
}

// playIn is playFile with the files read from dir.
func playIn(t *testing.T, dir, yaml string) (string, error) {
	t.Helper()
	sc, err := script.Parse([]byte(yaml), dir)
	require.NoError(t, err)
	var out bytes.Buffer
	err = sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out, Narrate: narrate.Options{Width: 1000}})
	return out.String(), err
}

func TestScenarioFileBecomesAScenario(t *testing.T) {
	sc, err := script.Load("testdata/scenarios/gates.yaml")
	require.NoError(t, err)
	assert.Equal(t, "gates", sc.Name)
	assert.Equal(t, "store a namespace and a pod, then watch RBAC stop alice", sc.Summary)
	assert.Equal(t, "Objects are stored as soon as the apiserver admits them; what may be done is decided per user.", sc.Teaches)
	assert.Equal(t, 0, sc.Cluster.Nodes)
	assert.NotNil(t, sc.Run)
}

func TestScenarioFileWithoutANameIsNamedAfterItsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my-story.yaml")
	require.NoError(t, os.WriteFile(path, []byte("steps:\n  - say: hello\n"), 0o644))
	sc, err := script.Load(path)
	require.NoError(t, err)
	assert.Equal(t, "my-story", sc.Name)
	assert.Equal(t, 3, sc.Cluster.Nodes, "a three-node cluster unless the file says otherwise")

	_, err = script.Parse([]byte("steps:\n  - say: hello\n"), ".")
	assert.EqualError(t, err, `line 1: the scenario has no name: add "name: NAME"`)
}

// TestScenarioFileMistakesNameTheLineAndTheFix checks each kind of mistake gets its line and a hint.
func TestScenarioFileMistakesNameTheLineAndTheFix(t *testing.T) {
	for _, tc := range []struct{ what, file, want string }{
		{"a misspelt step", `name: x
steps:
  - scael: deployment/nginx
    replicas: 5
`, `line 3: unknown step "scael": did you mean "scale"?`},
		{"a step nobody knows", `name: x
steps:
  - xyzzy: now
`, `line 3: unknown step "xyzzy": the steps are advance, apply, apply-file, delete, expect, expect-error, expect-event, fault, get, heal, say, scale, set-image, snapshot, trace, wait`},
		{"a missing argument", `name: x
steps:
  - say: scale it
  - scale: deployment/nginx
`, `line 4: scale needs replicas: add "replicas: N"`},
		{"a misspelt option", `name: x
steps:
  - scale: deployment/nginx
    replcas: 5
`, `line 4: unknown field "replcas" in a scale step: did you mean "replicas"?`},
		{"another step's option", `name: x
steps:
  - delete: deployment/nginx
    replicas: 5
`, `line 4: "replicas" does not go with a delete step (it goes with scale)`},
		{"as on a step that sends nothing", `name: x
steps:
  - advance: 1m
    as: alice
`, `line 4: "as" does not go with an advance step (it goes with apply, apply-file, delete, get, scale, set-image)`},
		{"two actions in one step", `name: x
steps:
  - apply-file: a.yaml
    wait: pods running
`, `line 4: a step does one thing, and this one has both "apply-file" and "wait": start a new step ("- wait: ...") for the second`},
		{"a bad duration", `name: x
steps:
  - wait: pods running
    within: 2 minutes
`, `line 4: within: "2 minutes" is not a duration: write it like 90s, 2m or 1h30m`},
		{"a bad condition", `name: x
steps:
  - wait: deployment nginx availabel
`, `line 3: wait: condition "deployment nginx availabel": "availabel" is not a state of deployments: did you mean "available"?
` + script.ConditionUsage},
		{"a misspelt top-level field", `name: x
step:
  - say: hi
`, `line 2: unknown field "step": did you mean "steps"?`},
		{"no steps", `name: x
`, `line 1: the scenario has no steps: add "steps:" and a list of steps, one per "- " line`},
		{"a misspelt cluster field", `name: x
cluster:
  node: 3
steps:
  - say: hi
`, `line 3: unknown field "node" in cluster: did you mean "nodes"?`},
		{"a seed in the file", `name: x
seed: 7
steps:
  - say: hi
`, `line 2: the seed is chosen when the scenario is played (kubesim run --seed N), not in the file: remove this line`},
		{"a key given twice", `name: x
steps:
  - scale: deployment/nginx
    replicas: 3
    replicas: 4
`, `line 5: "replicas" is given twice (first on line 4): keep one`},
		{"a manifest that does not decode", `name: x
steps:
  - apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: typo}
      spec:
        containers:
        - name: nginx
          image: nginx:1.25
          imagePullPolcy: Always
`, `line 3: apply: the manifest does not decode: strict decoding error: unknown field "spec.containers[0].imagePullPolcy"`},
		{"a file that is not there", `name: x
steps:
  - apply-file: missing.yaml
`, `line 3: apply-file: open testdata/scenarios/missing.yaml: no such file or directory (the path is relative to the scenario file)`},
		{"an unknown resource type", `name: x
steps:
  - delete: deploymnt/nginx
`, `line 3: delete: unknown resource type "deploymnt": did you mean "deployment"?`},
		{"a delete that names nothing", `name: x
steps:
  - delete: pods
`, `line 3: delete: "pods" names no object: write pod/NAME or pods -l SELECTOR`},
		{"a misspelt fault", `name: x
steps:
  - fault: partiton kube-scheduler
`, `line 3: fault: unknown fault "partiton": did you mean "partition"?`},
		{"a fault that cannot heal", `name: x
steps:
  - heal: compact-etcd
`, `line 3: heal: compact-etcd cannot be undone: the faults that heal are partition AGENT, slow-etcd, stop NAME`},
		{"a fault without its argument", `name: x
steps:
  - fault: slow-etcd
`, `line 3: fault: write it as "slow-etcd DURATION"`},
		{"expect-error after a step that sends nothing", `name: x
steps:
  - advance: 1m
  - expect-error: 403
`, `line 4: expect-error checks the step just before it, which must run a kubectl command (apply, apply-file, delete, get, scale, set-image)`},
		{"expect-error without a code", `name: x
steps:
  - get: pods
  - expect-error: Forbidden
`, `line 4: expect-error is a whole number, not "Forbidden"`},
		{"an expect-event without a reason", `name: x
steps:
  - expect-event: {message: Scaled up}
`, `line 3: expect-event needs a reason: "expect-event: Scheduled" or "expect-event: {reason: Scheduled, message: ...}"`},
		{"a trace without to", `name: x
steps:
  - trace: {from: client}
`, `line 3: trace needs from and to: "trace: {from: client, to: web:80}" (from a pod, to NAME:PORT)`},
		{"a trace to no port", `name: x
steps:
  - trace: {from: client, to: web}
`, `line 3: trace: to is NAME:PORT (a Service name, a DNS name or an IP, and a port), not "web"`},
		{"a trace with a misspelt key", `name: x
steps:
  - trace: {from: client, too: web:80}
`, `line 3: unknown field "too" in trace: did you mean "to"?`},
		{"a trace written as a line", `name: x
steps:
  - trace: client web:80
`, `line 3: trace is a mapping of keys to values (key: value), not "client web:80"`},
		{"steps that are not a list", `name: x
steps:
  say: hi
`, `line 3: steps is a list: start each step on its own line with "- "`},
		{"two documents", `name: x
steps:
  - say: hi
---
name: y
`, `line 4: a scenario file holds one YAML document: remove the "---" and what follows, or make it a file of its own`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			_, err := script.Parse([]byte(tc.file), "testdata/scenarios")
			var fe *script.FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestScenarioFileReportsEveryMistakeAtOnceWithItsFileName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`name: broken
steps:
  - scael: deployment/nginx
  - advance: soon
`), 0o644))
	_, err := script.Load(path)
	assert.EqualError(t, err, path+`: line 3: unknown step "scael": did you mean "scale"?`+"\n"+
		path+`: line 4: advance: "soon" is not a duration: write it like 90s, 2m or 1h30m`)
}

func TestScenarioFileThatIsNotYAMLGetsYAMLsErrorWithTheLine(t *testing.T) {
	_, err := script.Parse([]byte("name: x\nsteps:\n\t- say: a tab\n"), ".")
	assert.EqualError(t, err, "yaml: line 3: found character that cannot start any token")

	_, err = script.Parse(nil, ".")
	assert.EqualError(t, err, "the file is empty: a scenario needs a name and steps")
}

// TestScenarioFilePlaysLikeABuiltInScenario runs testdata/scenarios/gates.yaml end to end on a real
// cluster: commands as the admin and as alice, expectations, expected errors.
func TestScenarioFilePlaysLikeABuiltInScenario(t *testing.T) {
	sc, err := script.Load("testdata/scenarios/gates.yaml")
	require.NoError(t, err)
	var out bytes.Buffer
	err = sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out, Narrate: narrate.Options{Width: 1000}})
	require.NoError(t, err, out.String())
	story := out.String()
	for _, sign := range []string{
		"── 1. Create a namespace and a pod in it ──",
		"$ kubectl apply -f - (namespace/team, serviceaccount/default)",
		"$ kubectl apply -f web-pod.yaml",
		"put /registry/pods/team/web",
		"✓ pods -n team count 1",
		"$ kubectl get pods -n team --as alice",
		`✓ 403 Forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "team"`,
		`✓ 403 Forbidden: pods "web" is forbidden: User "alice" cannot delete resource "pods"`,
		"$ kubectl delete pod web -n team --grace-period=0",
		"✓ pods -n team count 0",
		"every expected sign was seen",
	} {
		assert.Contains(t, story, sign)
	}

	var first, second bytes.Buffer
	require.NoError(t, sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &first, Narrate: narrate.Options{Format: "json"}}))
	require.NoError(t, sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &second, Narrate: narrate.Options{Format: "json"}}))
	assert.Equal(t, first.String(), second.String(), "same file, same seed, same trace")
}

func TestScenarioFileFailsListingEveryUnmetSign(t *testing.T) {
	story, err := playFile(t, `name: unmet
steps:
  - expect: pods count 1
  - get: pods/ghost
  - apply-file: web-pod.yaml
  - expect-error: 404
  - get: namespaces
  - expect-error: 403
  - expect-event: {reason: Scheduled, object: pod/web}
`)
	assert.EqualError(t, err, `4 expectation(s) not met:
  - pods count 1 (saw no pods)
  - line 4: get failed: pods "ghost" not found
  - 403 (but the command succeeded)
  - event Scheduled for pod/web (saw none since line 5 (0 from before it))`)
	assert.Contains(t, story, `✓ 404 NotFound: namespaces "team" not found`, "the apply failed as expected")
	assert.Contains(t, story, `✗ line 4: get failed: pods "ghost" not found`)
}

// runFile plays a scenario file on a cluster the test can inspect afterwards, with the components
// that add makes added first.
func runFile(t *testing.T, yaml string, add ...func(c *sim.Cluster) sim.Component) (*sim.Cluster, string, error) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nginx-deployment.yaml"), []byte(manifests.NginxDeployment), 0o644))
	sc, err := script.Parse([]byte(yaml), dir)
	require.NoError(t, err)
	c, ctx := testenv.Cluster(t, testenv.Step)
	for _, comp := range add {
		require.NoError(t, c.Add(ctx, comp(c)))
	}
	err = sc.Run(ctx, sim.NewSession(c))
	var story strings.Builder
	for _, e := range c.Trace.Events() {
		story.WriteString(e.Message + "\n")
	}
	return c, story.String(), err
}

func TestScenarioFileCommandsChangeTheCluster(t *testing.T) {
	c, story, err := runFile(t, `name: commands
steps:
  - apply-file: nginx-deployment.yaml
  - scale: deployment/nginx
    replicas: 5
  - set-image: deployment/ngi*
    image: nginx:1.27
  - set-image: deployment/nginx
    container: sidecar
    image: envoy:1.30
  - apply:
      - {apiVersion: v1, kind: Pod, metadata: {name: web-1, labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}
      - {apiVersion: v1, kind: Pod, metadata: {name: web-2, labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}
  - expect: pods -l app=web count 2
  - delete: pods -l app=web
  - expect: pods -l app=web count 0
  - delete: deployment/nginx
    cascade: orphan
`)
	assert.EqualError(t, err, "1 expectation(s) not met:\n  - line 8: set-image failed: unable to find container named \"sidecar\"")
	for _, line := range []string{
		"$ kubectl apply -f nginx-deployment.yaml",
		"$ kubectl scale deployment/nginx --replicas=5",
		"$ kubectl set image deployment/nginx *=nginx:1.27",
		"$ kubectl set image deployment/nginx sidecar=envoy:1.30",
		"$ kubectl delete pods -l app=web",
		"$ kubectl delete deployment nginx --cascade=orphan",
	} {
		assert.Contains(t, story, line)
	}
	d, err := client.For[api.Deployment](c.Kubectl.Client()).Get(context.Background(), "default", "nginx")
	require.NoError(t, err, "with no garbage collector running, the orphan finalizer keeps the Deployment")
	assert.Equal(t, int32(5), *d.Spec.Replicas)
	assert.Equal(t, "nginx:1.27", d.Spec.Template.Spec.Containers[0].Image)
	assert.NotNil(t, d.DeletionTimestamp)
	assert.True(t, d.HasFinalizer("orphan"))
}

// busy is a component with work for its first n steps; on its last it creates a pod.
type busy struct {
	client *client.Client
	n      int
}

func (b *busy) Name() string                       { return "busy" }
func (b *busy) Informers() []client.InformerHandle { return nil }
func (b *busy) Run(context.Context)                {}
func (b *busy) Step(ctx context.Context) (bool, error) {
	if b.n == 0 {
		return false, nil
	}
	if b.n--; b.n == 0 {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "made", Namespace: "default"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
		_, err := client.For[api.Pod](b.client).Create(ctx, pod)
		return true, err
	}
	return true, nil
}

func TestWaitRunsTheClusterUntilTheConditionHoldsOrItsBudgetIsSpent(t *testing.T) {
	busyFor3Steps := func(c *sim.Cluster) sim.Component {
		return &busy{client: c.Client("system:kube-controller-manager", "busy"), n: 3}
	}
	c, story, err := runFile(t, `name: waiting
steps:
  - wait: pods count 0
  - wait: pod made running
    max-steps: 2
  - wait: pod made gone
    within: 2m
  - wait: pods count 1
  - wait: pods count 2
    within: 2m
  - advance: 90s
`, busyFor3Steps)
	require.Error(t, err)
	assert.Contains(t, story, "pods count 0 (after 0 steps, 0s)")
	assert.Contains(t, story, "pod made running: still not, after 2 steps and 0s")
	assert.Contains(t, story, "pod made gone (after 0 steps, 0s)")
	assert.Contains(t, story, "pods count 1 (after 1 steps, 0s)")
	assert.Contains(t, story, "waiting until pods count 2 (at most 2m)")
	assert.Contains(t, story, "pods count 2: still not, after 0 steps and 2m")
	assert.Contains(t, story, "letting 1m30s of cluster time pass")
	assert.Equal(t, "3m30s", c.Now().Sub(sim.Epoch).String(), "a wait that fails spends exactly its budget")
}

func TestFaultStepsBreakAndHealTheCluster(t *testing.T) {
	_, story, err := runFile(t, `name: faults
steps:
  - get: pods
    as: alice
  - expect-error: 403
  - fault: expire-credential alice
  - get: pods
    as: alice
  - expect-error: 401
  - fault: slow-etcd 200ms
  - apply: {apiVersion: v1, kind: Namespace, metadata: {name: slow}}
  - heal: slow-etcd
  - fault: compact-etcd
  - fault: stop nobody
  - fault: partition kubectl
  - get: pods
  - heal: partition kubectl
  - get: pods
`)
	assert.EqualError(t, err, `2 expectation(s) not met:
  - line 14: fault failed: no component named "nobody"
  - line 16: get failed: list pods: dial kube-apiserver: connection refused (network partition)`)
	for _, line := range []string{
		"✓ 401 Unauthorized: Unauthorized",
		"the client certificate of alice has expired",
		"etcd's disk is slow: every write now waits 200ms for fsync",
		"etcd writes are fast again",
		"compacted history up to revision",
		"network partition: kubectl can no longer reach kube-apiserver",
		"network healed: kubectl reaches kube-apiserver again",
	} {
		assert.Contains(t, story, line)
	}
}

// A snapshot step saves etcd to a file of the run's own and restores it under the running cluster:
// a ConfigMap deleted after the save is back after the restore, and no snapshot file outlives the run.
func TestSnapshotStepsSaveAndRestoreEtcd(t *testing.T) {
	c, story, err := runFile(t, `name: snapshots
steps:
  - apply: {apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {color: blue}}
  - snapshot: save before
  - delete: configmap/settings
  - get: configmap/settings
  - expect-error: 404
  - snapshot: restore before
  - get: configmap/settings
`)
	require.NoError(t, err)
	assert.Contains(t, story, "etcdctl snapshot save: the whole keyspace at revision")
	cm, err := client.For[api.ConfigMap](c.Kubectl.Client()).Get(context.Background(), "default", "settings")
	require.NoError(t, err, "the ConfigMap is back")
	assert.Equal(t, "blue", cm.Data["color"])
	leftovers, _ := filepath.Glob(filepath.Join(os.TempDir(), "kubesim-snapshots-*"))
	assert.Empty(t, leftovers, "the run removes its snapshot files")

	for file, want := range map[string]string{
		"name: x\nsteps:\n  - snapshot: restore before\n": `line 3: snapshot: restore before: no step before this one saves a snapshot named before (write "snapshot: save before" first)`,
		"name: x\nsteps:\n  - snapshot: take it\n":        `line 3: snapshot: write it as "save NAME" or "restore NAME", not "take it"`,
	} {
		_, err := script.Parse([]byte(file), ".")
		assert.EqualError(t, err, want)
	}
}

// Every documented example must parse and play with every expected sign seen.
func TestExampleScenarioFilesAreValid(t *testing.T) {
	files, err := filepath.Glob("../examples/scenarios/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		if !strings.Contains(string(data), "\nsteps:") {
			continue // a manifest the scenarios apply
		}
		sc, err := script.Load(f)
		require.NoError(t, err, f)
		var out bytes.Buffer
		require.NoError(t, sim.Play(context.Background(), sc, sim.PlayOptions{Seed: 1, Out: &out}), "%s\n%s", f, out.String())
	}
}

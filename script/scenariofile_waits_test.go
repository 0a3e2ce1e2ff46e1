package script_test

// The waits and expectations of a scenario file look at what the last step that acted caused: the
// cluster once it has reacted, and the events recorded since. These tests break the cluster on
// purpose and check that a file which claims the behaviour then fails, saying what it saw.

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/internal/testenv"
	"kubesim/script"
	"kubesim/sim"
)

// playFull plays a scenario file's text on a whole cluster (3 nodes, every component), in step mode,
// with files read from examples/scenarios; it returns the story and the verdict.
func playFull(t *testing.T, yaml string) (string, error) {
	t.Helper()
	return playIn(t, "../examples/scenarios", yaml)
}

// nginxUp is the start of the files below: the articles' Deployment, available.
const nginxUp = `name: waits
steps:
  - apply-file: nginx-deployment.yaml
  - wait: deployment nginx available
`

func TestExpectEventCountsOnlyEventsRecordedSinceTheLastAction(t *testing.T) {
	story, err := playFull(t, nginxUp+`  - scale: deployment/nginx
    replicas: 3
  - expect-event: {reason: ScalingReplicaSet, message: "Scaled up replica set nginx-"}
`)
	assert.EqualError(t, err, `1 expectation(s) not met:
  - event ScalingReplicaSet "Scaled up replica set nginx-" (saw none since line 5 (1 from before it))`,
		"scaling to the replicas it already has scales nothing up: the event from the apply does not count")
	assert.Contains(t, story, `✓ deployment nginx available`)
}

func TestAWaitAfterAnActionIsNotMetByTheStateBeforeIt(t *testing.T) {
	story, err := playFull(t, nginxUp+`  - fault: stop replicaset-controller
  - delete: pod/nginx-*
  - wait: pods -l app=nginx count 3
    within: 1m
  - expect-event: {reason: SuccessfulCreate, message: "Created pod: nginx-"}
`)
	require.Error(t, err, "with the ReplicaSet controller stopped, no pod replaces the deleted one:\n%s", story)
	assert.Regexp(t, `pods -l app=nginx count 3: still not, after \d+ steps and 1m: saw 2 pods: 2 Running`, err.Error(),
		"the deleted pod, Terminating at the instant after the delete, is gone once its kubelet has acted")
	assert.Contains(t, err.Error(), `event SuccessfulCreate "Created pod: nginx-" (saw none since line 6 (3 from before it))`)
}

func TestAnExpectationAfterAnActionSeesTheClustersAnswer(t *testing.T) {
	story, err := playFull(t, nginxUp+`  - set-image: deployment/nginx
    image: nginx:1.27
  - expect: deployment nginx available
`)
	require.Error(t, err, story)
	assert.Contains(t, err.Error(), "deployment nginx available (saw deployment nginx: 3/3 ready, 1 up-to-date, 3 available)",
		"the rollout has begun: one new pod is starting")
}

func TestAWaitThatDoesNotEndSaysWhatItSaw(t *testing.T) {
	_, err := playFull(t, `name: no-such-image
steps:
  - apply: {apiVersion: v1, kind: Pod, metadata: {name: web, labels: {app: web}}, spec: {containers: [{name: web, image: nginx:no-such-tag}]}}
  - wait: pods -l app=web running
    within: 2m
`)
	require.Error(t, err)
	assert.Regexp(t, `pods -l app=web running: still not, after \d+ steps and 2m: saw 1 pod: 1 (ImagePullBackOff|ErrImagePull)`, err.Error())
}

// breakExample plays a file of examples/scenarios with extra steps inserted before the line that
// starts with before, and returns the story and the verdict.
func breakExample(t *testing.T, file, before, insert string) (string, error) {
	t.Helper()
	data, err := os.ReadFile("../examples/scenarios/" + file)
	require.NoError(t, err)
	at := strings.Index(string(data), before)
	require.GreaterOrEqual(t, at, 0, "%s has no line %q", file, before)
	broken := string(data[:at]) + insert + string(data[at:])
	return playFull(t, broken)
}

// Each example must fail when what it claims is broken: a claim a file cannot fail to see proves
// nothing.
func TestExampleScenarioFilesFailWhenTheirClaimIsBroken(t *testing.T) {
	t.Run("self-healing without the ReplicaSet controller", func(t *testing.T) {
		story, err := breakExample(t, "self-healing.yaml", "  - delete: pod/nginx-*", "  - fault: stop replicaset-controller\n")
		require.Error(t, err, story)
		assert.Regexp(t, `event SuccessfulCreate "Created pod: nginx-": still not, after \d+ steps and 1m: saw none since line \d+ \(3 from before it\)`, err.Error())
		assert.Regexp(t, `pods -l app=nginx count 3: still not, after \d+ steps and 2m: saw 2 pods: 2 Running`, err.Error())
	})
	t.Run("service-reachability without the EndpointSlice controller", func(t *testing.T) {
		story, err := breakExample(t, "service-reachability.yaml", "  - say: The pods run", "  - fault: stop endpointslice-controller\n")
		require.Error(t, err, story)
		assert.Regexp(t, `trace client web:80 reached: still not, after \d+ steps and 1m: saw unreachable at the rules hop: Service default/web has no endpoints`, err.Error())
	})
	t.Run("rolling-update without the deployment controller", func(t *testing.T) {
		story, err := breakExample(t, "rolling-update.yaml", "  - set-image: deployment/nginx", "  - fault: stop deployment-controller\n")
		require.Error(t, err, story)
		assert.Regexp(t, `deployment nginx complete: still not, after \d+ steps and 5m: saw deployment nginx: 3/3 ready, 3 up-to-date, 3 available, generation 2 not yet observed \(1\)`, err.Error())
	})
}

// Every line a scenario file's steps add to the story has its Chinese (--lang zh), the signs that
// fail included: play the examples, whole and broken, and look up each line kubesim records.
func TestScenarioFileLinesHaveChinese(t *testing.T) {
	cat := sim.Catalog(script.ZH)
	files := map[string]string{"broken self-healing": "self-healing.yaml", "rolling-update": "rolling-update.yaml",
		"service-reachability": "service-reachability.yaml"}
	for name, file := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("../examples/scenarios/" + file)
			require.NoError(t, err)
			text := string(data)
			if strings.HasPrefix(name, "broken") {
				text = strings.Replace(text, "  - delete: pod/nginx-*", "  - fault: stop replicaset-controller\n  - delete: pod/nginx-*", 1)
			}
			sc, err := script.Parse([]byte(text+"  - expect: pods count 0\n"), "../examples/scenarios")
			require.NoError(t, err)
			cfg := sc.Cluster
			cfg.Mode, cfg.Seed, cfg.KeepTrace = sim.StepMode, 1, true
			c, ctx := testenv.Cluster(t, cfg)
			require.Error(t, sc.Run(ctx, sim.NewSession(c)))
			for _, e := range c.Trace.Events() {
				if e.Component != "kubesim" {
					continue
				}
				format, _ := e.Format()
				_, ok := cat[format]
				assert.True(t, ok, "no Chinese for %q", format)
			}
		})
	}
}

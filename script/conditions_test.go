package script_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/scenarios/manifests"
	"kubesim/script"
)

func ExampleParseCondition() {
	cond, _ := script.ParseCondition("pods running -l app=nginx -n team")
	fmt.Println(cond)
	_, err := script.ParseCondition("deployment nginx availabel")
	fmt.Println(err.(*script.ConditionError).Problem)
	// Output:
	// pods -n team -l app=nginx running
	// "availabel" is not a state of deployments: did you mean "available"?
}

func TestParseConditionReadsEveryFormAndPrintsItBack(t *testing.T) {
	for in, want := range map[string]string{
		"deployment nginx available":        "deployment nginx available",
		"deployment nginx complete -n team": "deployment nginx -n team complete",
		"deployments available":             "deployments available",
		"pod nginx-* bound":                 "pod nginx-* bound",
		"pods bound":                        "pods bound",
		"pod web running":                   "pod web running",
		"pods -l app=nginx running":         "pods -l app=nginx running",
		"pods --selector=app=nginx ready":   "pods -l app=nginx ready",
		"pod web phase failed":              "pod web phase Failed",
		"pod web reason CrashLoopBackOff":   "pod web reason CrashLoopBackOff",
		"pod web gone --namespace=team":     "pod web -n team gone",
		"pods count 3 -l app=nginx":         "pods -l app=nginx count 3",
		"node node-2 ready":                 "node node-2 ready",
		"node node-2 notready -n ignored":   "node node-2 notready",
		"node node-2 unknown":               "node node-2 unknown",
		"nodes ready":                       "nodes ready",
		"node node-2 tainted node.kubernetes.io/unreachable:NoExecute": "node node-2 tainted node.kubernetes.io/unreachable:NoExecute",
		"event FailedScheduling":                          "event FailedScheduling",
		`event ScalingReplicaSet "Scaled up replica set"`: `event ScalingReplicaSet "Scaled up replica set"`,
		"event Killing for pod/nginx-* -n team":           "event Killing for pod/nginx-* -n team",
		"namespace team gone":                             "namespace team gone",
		"replicasets -l app=nginx count 0":                "replicasets -l app=nginx count 0",
		"trace client web:80 reached":                     "trace client web:80 reached",
		"trace shop/client cart:8080 unreachable":         "trace shop/client cart:8080 unreachable",
		"trace client web:80 unreachable at rules":        "trace client web:80 unreachable at rules",
		"trace client web.shop:80 reached -n shop":        "trace shop/client web.shop:80 reached",
	} {
		cond, err := script.ParseCondition(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, cond.String(), in)
			again, err := script.ParseCondition(cond.String())
			require.NoError(t, err, "String() must parse again")
			assert.Equal(t, want, again.String())
		}
	}
}

func TestParseConditionNamesTheProblemAndListsTheForms(t *testing.T) {
	for in, problem := range map[string]string{
		"":                           "it is empty",
		"deploymnt nginx available":  `"deploymnt" is not something a condition can be about: did you mean "deployment"?`,
		"service web ready":          `"service" is not something a condition can be about: say deployment, pod, node, namespace or event (or their plurals)`,
		"pod running":                "pod needs a NAME (pod NAME ...), or use pods for every pod",
		"pod web":                    "say which state: bound, count N, gone, phase PHASE, ready, reason REASON, running",
		"pod web avaliable":          `"avaliable" is not a state of pods: use bound, count N, gone, phase PHASE, ready, reason REASON, running`,
		"pod web runing":             `"runing" is not a state of pods: did you mean "running"?`,
		"pod web phase":              "phase takes one PHASE: pod NAME phase PHASE",
		"pods count":                 "count takes one N: pods count N",
		"pods count many":            `count takes a number, not "many"`,
		"pod web phase Crashed":      `"Crashed" is not a pod phase: use Pending, Running, Succeeded, Failed or Unknown`,
		"pod web running now":        `"now" after "running" is one word too many`,
		"pods running -l":            "-l needs a value",
		"pods running -x y":          "unknown flag -x: only -n NAMESPACE and -l SELECTOR are understood",
		"pods running -l 'app in x'": "-l 'app: ",
		"event":                      "event needs a REASON",
		"event Killing for pod":      `for takes KIND/NAME, like pod/nginx-* or node/node-2, not "pod"`,
		`event Killing "unclosed`:    "a quote is not closed",
		"trace client web:80":        "write it as trace FROM NAME:PORT reached",
		"trace client web reached":   `"web" is not NAME:PORT`,
		"trace client web:80 maybe":  `say reached, unreachable, or unreachable at HOP, not "maybe"`,
		"trace client web:80 unreachable at rule": `"rule" is not a hop: did you mean "rules"?`,
		"trace client web:80 reached at rules":    `not "reached at rules"`,
	} {
		_, err := script.ParseCondition(in)
		var ce *script.ConditionError
		if assert.ErrorAs(t, err, &ce, in) {
			assert.Contains(t, ce.Problem, problem, in)
			assert.Contains(t, err.Error(), script.ConditionUsage, "the error lists the accepted forms")
		}
	}
}

// TestConditionsReadWhatKubectlGetWouldShow writes objects and their status as the controllers, the
// scheduler and the kubelets would, then asks each condition.
func TestConditionsReadWhatKubectlGetWouldShow(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Step)
	admin := c.Kubectl.Client()

	// A Deployment whose controller has rolled out 3 of 3.
	objs, err := c.Kubectl.Apply(ctx, []byte(manifests.NginxDeployment))
	require.NoError(t, err)
	d := objs[0].(*api.Deployment)
	d.Status = api.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
		Conditions: []api.DeploymentCondition{{Type: api.DeploymentAvailable, Status: api.ConditionTrue, Reason: "MinimumReplicasAvailable"}}}
	_, err = client.For[api.Deployment](admin).UpdateStatus(ctx, d)
	require.NoError(t, err)

	// Two pods: one running and ready on node-1, one crash-looping and unbound.
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	node, err = client.For[api.Node](admin).Create(ctx, node)
	require.NoError(t, err)
	node.Spec.Taints = []api.Taint{{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoExecute}}
	node, err = client.For[api.Node](admin).Update(ctx, node)
	require.NoError(t, err)
	node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown, Reason: "NodeStatusUnknown"}}
	_, err = client.For[api.Node](admin).UpdateStatus(ctx, node)
	require.NoError(t, err)
	for _, name := range []string{"nginx-a", "nginx-b"} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "nginx"}},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
		_, err := client.For[api.Pod](admin).Create(ctx, pod)
		require.NoError(t, err)
	}
	err = admin.Bind(ctx, "default", "nginx-a", "node-1")
	require.NoError(t, err)
	pods := client.For[api.Pod](admin)
	a, err := pods.Get(ctx, "default", "nginx-a")
	require.NoError(t, err)
	a.Status.Phase = api.PodRunning
	a.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	_, err = pods.UpdateStatus(ctx, a)
	require.NoError(t, err)
	b, err := pods.Get(ctx, "default", "nginx-b")
	require.NoError(t, err)
	b.Status.Phase = api.PodRunning
	b.Status.ContainerStatuses = []api.ContainerStatus{{Name: "nginx", RestartCount: 3,
		State:                api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}}}}
	_, err = pods.UpdateStatus(ctx, b)
	require.NoError(t, err)

	// A pod whose init container crash-loops: STATUS Init:CrashLoopBackOff.
	initPod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "migrate", Namespace: "default", Labels: map[string]string{"app": "migrate"}},
		Spec: api.PodSpec{InitContainers: []api.Container{{Name: "wait-for-db", Image: "busybox:1.36"}},
			Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}}}}
	_, err = client.For[api.Pod](admin).Create(ctx, initPod)
	require.NoError(t, err)
	m, err := pods.Get(ctx, "default", "migrate")
	require.NoError(t, err)
	m.Status.Phase = api.PodPending
	m.Status.InitContainerStatuses = []api.ContainerStatus{{Name: "wait-for-db", RestartCount: 2,
		State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
	m.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app",
		State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "PodInitializing"}}}}
	_, err = pods.UpdateStatus(ctx, m)
	require.NoError(t, err)

	_, err = client.For[api.Event](admin).Create(ctx, &api.Event{ObjectMeta: api.ObjectMeta{Name: "nginx-b.1", Namespace: "default"},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "nginx-b"},
		Reason:         "BackOff", Message: "Back-off restarting failed container nginx in pod nginx-b_default", Type: api.EventTypeWarning})
	require.NoError(t, err)
	require.NoError(t, c.Driver.Settle(ctx))

	for cond, want := range map[string]bool{
		"deployment nginx available":                         true,
		"deployment nginx complete":                          true,
		"deployment ngi* available":                          true,
		"deployment nginx -n kube-system gone":               true,
		"deployments count 1":                                true,
		"pod nginx-a bound":                                  true,
		"pod nginx-b bound":                                  false,
		"pod nginx-* bound":                                  true,  // some
		"pods bound":                                         false, // every
		"pods -l app=nginx running":                          true,
		"pods -l app=other running":                          false, // every of none: no
		"pod nginx-a ready":                                  true,
		"pods ready":                                         false,
		"pod nginx-b phase Running":                          true,
		"pod nginx-b reason CrashLoopBackOff":                true,
		"pod nginx-b reason OOMKilled":                       true, // the last termination counts too
		"pod nginx-a reason CrashLoopBackOff":                false,
		"pods count 3":                                       true,
		"pod migrate reason Init:CrashLoopBackOff":           true,
		"pod migrate reason CrashLoopBackOff":                true,
		"pod migrate reason PodInitializing":                 true, // the app container's own reason
		"pod migrate reason Init:Error":                      false,
		"pods -l app=nginx count 3":                          false,
		"pod nginx-c gone":                                   true,
		"pod nginx-a gone":                                   false,
		"node node-1 unknown":                                true,
		"node node-1 ready":                                  false,
		"nodes ready":                                        false,
		"node node-1 tainted node.kubernetes.io/unreachable": true,
		"node node-1 tainted node.kubernetes.io/unreachable:NoExecute":  true,
		"node node-1 tainted node.kubernetes.io/unreachable:NoSchedule": false,
		"event BackOff": true,
		`event BackOff "Back-off restarting failed container"`: true,
		"event BackOff for pod/nginx-*":                        true,
		"event BackOff for pod/other":                          false,
		"event Scheduled":                                      false,
		"namespace default gone":                               false,
		"namespace team gone":                                  true,
	} {
		parsed, err := script.ParseCondition(cond)
		require.NoError(t, err, cond)
		met, err := parsed.Met(ctx, c)
		require.NoError(t, err, cond)
		assert.Equal(t, want, met, cond)
	}

	// A scale-up the controller has not caught up with: no longer available, not complete.
	require.NoError(t, c.Kubectl.Scale(ctx, "deployments", "default", "nginx", 5))
	for _, s := range []string{"deployment nginx available", "deployment nginx complete"} {
		cond, _ := script.ParseCondition(s)
		met, err := cond.Met(ctx, c)
		require.NoError(t, err)
		assert.False(t, met, s)
	}
}

// serve_scenarios.go: `kubesim serve --scenario NAME`, a scenario's broken state handed to the learner
// as an exercise for the real kubectl. Each exercise builds the scenario's cluster (its nodes and node
// specs) and plays the first steps of the scenario's own Run, those that apply its manifests and
// faults (sim.SetUp), without judging its signs; then the cluster keeps running (in real time, or
// paused with --step). serve prints what to investigate: the scenario's summary, the signs to look
// for (from its Teaches), and the kubectl commands that show them.
package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"kubesim/scenarios"
	"kubesim/sim"
)

// exercise is how serve hands over one scenario: how many of its steps build the broken state
// (sim.SetUp plays them), and the kubectl commands that show the symptom.
type exercise struct {
	steps int
	try   []string
}

// exercises are the scenarios serve can hand over, by name.
var exercises = map[string]exercise{
	"crash-loop": {1, []string{"kubectl get pods -w", "kubectl describe pod crasher", "kubectl logs crasher --previous"}},
	"image-pull-backoff": {1, []string{"kubectl get pods -o wide", "kubectl describe pod web",
		"kubectl get events --field-selector involvedObject.name=web"}},
	"insufficient-resources": {2, []string{"kubectl get pods -o wide", "kubectl describe pod big",
		"kubectl describe nodes | grep -A 8 'Allocated resources'", "kubectl scale deployment batch --replicas=2"}},
	"node-down": {2, []string{"kubectl get nodes", "kubectl describe node node-2", "kubectl -n kube-node-lease get lease",
		"kubectl get pods -o wide -w"}},
	"forbidden": {1, []string{"kubectl --context kubesim-alice get pods", "kubectl auth can-i list pods --as alice",
		"kubectl create role pod-reader --verb=get,list,watch --resource=pods",
		"kubectl create rolebinding alice-reads-pods --role=pod-reader --user=alice"}},
	"pvc-pending": {1, []string{"kubectl get pvc,pv", "kubectl describe pvc data", "kubectl describe pod redis",
		"kubectl get storageclass"}},
	"service-no-endpoints": {1, []string{"kubectl get endpoints web", "kubectl describe service web", "kubectl get pods --show-labels",
		"kubectl get endpointslices -l kubernetes.io/service-name=web"}},
	"wrong-target-port": {1, []string{"kubectl get endpoints", "kubectl describe service web-8080", "kubectl get pods -o wide",
		"kubectl get pod -l app=web -o jsonpath={.items[0].spec.containers[0].ports}"}},
}

// exerciseNames lists the scenarios serve can set up, sorted.
func exerciseNames() []string {
	names := make([]string, 0, len(exercises))
	for name := range exercises {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// lookupExercise finds the scenario and its exercise, or says which names there are.
func lookupExercise(name string) (sim.Scenario, exercise, error) {
	ex, ok := exercises[name]
	sc, found := scenarios.Lookup(name)
	if !ok || !found {
		return sim.Scenario{}, exercise{}, fmt.Errorf("no exercise for scenario %q; serve --scenario takes: %s", name, strings.Join(exerciseNames(), ", "))
	}
	return sc, ex, nil
}

// printHint tells the learner what was set up and what to look at.
func printHint(w io.Writer, sc sim.Scenario, ex exercise) {
	fmt.Fprintf(w, "\nScenario %s: %s\n", sc.Name, sc.Summary)
	if _, signs, ok := strings.Cut(sc.Teaches, "Signs to look for:"); ok {
		fmt.Fprintf(w, "\nSigns to look for:%s\n", signs)
		if strings.Contains(signs, "nodes are available") {
			fmt.Fprintln(w, controlPlaneNodeNote)
		}
	}
	fmt.Fprintln(w, "\nTry:")
	for _, cmd := range ex.try {
		fmt.Fprintf(w, "  %s\n", cmd)
	}
	fmt.Fprintf(w, "\n(kubesim describe %s tells the whole story.)\n\n", sc.Name)
}

// controlPlaneNodeNote says how serve's cluster differs from the scenario's in what the scheduler
// counts.
const controlPlaneNodeNote = `Here the cluster also has a control-plane node, tainted node-role.kubernetes.io/control-plane:NoSchedule
as kubeadm makes it, and the scheduler counts it: one more node in "0/N nodes are available", and
"1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }" among the reasons.`

// scenarioConfig is the cluster a scenario needs; one that names no nodes (it plays on the control
// plane alone) gets serve's full cluster of nodes.
func scenarioConfig(sc sim.Scenario, nodes int) sim.Config {
	if sc.Cluster.Nodes == 0 && len(sc.Cluster.NodeSpecs) == 0 {
		return sim.FullCluster(nodes)
	}
	return sc.Cluster
}

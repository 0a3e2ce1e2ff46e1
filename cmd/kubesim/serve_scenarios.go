// serve_scenarios.go: `kubesim serve --scenario NAME`, a scenario's broken state handed to the learner
// as an exercise for the real kubectl. Each exercise builds the scenario's cluster (its nodes and node
// specs), applies the scenario's manifests and faults without checking any sign, and then the cluster
// keeps running in real time; serve prints what to investigate: the scenario's summary, the signs to
// look for (from its Teaches), and the kubectl commands that show them.
package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/scenarios"
	"kubesim/scenarios/manifests"
	"kubesim/script"
	"kubesim/sim"
)

// exerciseSetupWithin bounds how long (cluster time) a setup waits for the state it builds on.
const exerciseSetupWithin = 2 * time.Minute

// exercise is how serve sets up one scenario: what it does to the cluster, and what to run to see it.
type exercise struct {
	setup func(ctx context.Context, c *sim.Cluster) error
	try   []string // kubectl commands that show the symptom
}

// exercises are the scenarios serve can hand over, by name.
var exercises = map[string]exercise{
	"crash-loop": {
		setup: applying("crasher.yaml"),
		try:   []string{"kubectl get pods -w", "kubectl describe pod crasher", "kubectl logs crasher --previous"},
	},
	"image-pull-backoff": {
		setup: applying("bad-images.yaml"),
		try:   []string{"kubectl get pods -o wide", "kubectl describe pod web", "kubectl get events --field-selector involvedObject.name=web"},
	},
	"insufficient-resources": {
		setup: applying("batch-deployment.yaml", "pods -l app=batch running", "pods -l app=batch count 3", "big-pod.yaml"),
		try:   []string{"kubectl get pods -o wide", "kubectl describe pod big", "kubectl describe nodes | grep -A 8 'Allocated resources'", "kubectl scale deployment batch --replicas=2"},
	},
	"node-down": {
		setup: func(ctx context.Context, c *sim.Cluster) error {
			if err := applying("nginx-deployment.yaml", "deployment nginx available")(ctx, c); err != nil {
				return err
			}
			return c.Stop("kubelet/node-2")
		},
		try: []string{"kubectl get nodes", "kubectl describe node node-2", "kubectl -n kube-node-lease get lease", "kubectl get pods -o wide -w"},
	},
	"forbidden": {
		setup: func(ctx context.Context, c *sim.Cluster) error {
			_, err := c.Kubectl.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}})
			return err
		},
		try: []string{"kubectl --context kubesim-alice get pods", "kubectl auth can-i list pods --as alice",
			"kubectl create role pod-reader --verb=get,list,watch --resource=pods",
			"kubectl create rolebinding alice-reads-pods --role=pod-reader --user=alice"},
	},
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

// applying is a setup that goes through its steps in order: a step ending in .yaml is kubectl apply
// -f of that file of scenarios/manifests, any other is a condition (script's language) to wait for.
func applying(steps ...string) func(ctx context.Context, c *sim.Cluster) error {
	return func(ctx context.Context, c *sim.Cluster) error {
		for _, step := range steps {
			if strings.HasSuffix(step, ".yaml") {
				if _, err := c.Kubectl.Apply(ctx, []byte(manifests.Read(step))); err != nil {
					return fmt.Errorf("kubectl apply -f %s: %w", step, err)
				}
				continue
			}
			cond, err := script.ParseCondition(step)
			if err != nil {
				return err
			}
			met, err := c.Wait(ctx, cond, exerciseSetupWithin, 0)
			if err != nil {
				return err
			}
			if !met {
				return fmt.Errorf("%s: still not, after %s", step, exerciseSetupWithin)
			}
		}
		return nil
	}
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
	}
	fmt.Fprintln(w, "\nTry:")
	for _, cmd := range ex.try {
		fmt.Fprintf(w, "  %s\n", cmd)
	}
	fmt.Fprintf(w, "\n(kubesim describe %s tells the whole story.)\n\n", sc.Name)
}

// scenarioConfig is the cluster a scenario needs; one that names no nodes (it plays on the control
// plane alone) gets serve's full cluster of nodes.
func scenarioConfig(sc sim.Scenario, nodes int) sim.Config {
	if sc.Cluster.Nodes == 0 && len(sc.Cluster.NodeSpecs) == 0 {
		return sim.FullCluster(nodes)
	}
	return sc.Cluster
}

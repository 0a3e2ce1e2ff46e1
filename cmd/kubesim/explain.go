// explain.go: `kubesim explain`, the scheduler showing its work for one pod. It boots a step-mode
// cluster (3 default nodes, N nodes, or a scenario's nodes with their labels and taints), applies a
// manifest, runs the cluster until kube-scheduler's cycle for the pod, and prints the scheduler's
// Explanation as it stood just before that cycle: every node's verdict from every Filter plugin, then
// each Score plugin's raw and normalised score, the weights, the totals and the winner; then what the
// scheduler actually did.
//
//	kubesim explain -f web.yaml --pod default/web
//	kubesim explain -f deploy.yaml --pod 'default/web-*' --scenario taints --output json
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/scheduler"
	"kubesim/sim"
)

// explainMaxWait bounds, in cluster time, the wait for the pod to appear and be tried.
const explainMaxWait = 5 * time.Minute

func explain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explain", `usage: kubesim explain -f MANIFEST --pod NAMESPACE/NAME [--nodes N | --scenario NAME] [--output text|json]

Boots a step-mode cluster, applies MANIFEST, runs it until kube-scheduler's cycle for the pod and
prints the scheduler's explanation of that cycle: each node's verdict from each Filter plugin, each
Score plugin's raw and normalised score, the weighted totals and the winner.`, stderr)
	file := fs.String("f", "", "manifest to apply (YAML or JSON; Pods, Deployments, ... one or more documents)")
	podArg := fs.String("pod", "", "the pod to explain, NAMESPACE/NAME (NAME may end in * to match a prefix, e.g. default/web-*)")
	output := fs.String("output", "text", "text (tables) or json (the Explanation object)")
	nodes := fs.Int("nodes", 3, fmt.Sprintf("number of default nodes, 1..%d (4 CPUs, 8Gi each, zones a, b, c)", maxNodes))
	scenario := fs.String("scenario", "", "use this scenario's cluster shape (its nodes, labels and taints) instead of --nodes")
	seed := fs.Int64("seed", 1, "seed for every random choice: same seed, same answer")
	if code, ok := noArgs(fs, args); !ok {
		return code
	}
	var missing []string
	if *file == "" {
		missing = append(missing, "-f MANIFEST (the objects to apply)")
	}
	if *podArg == "" {
		missing = append(missing, "--pod NAMESPACE/NAME (the pod to explain)")
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "kubesim explain: missing %s; kubesim help explain says more\n", strings.Join(missing, " and "))
		return 2
	}
	if err := checkNodes("--nodes", *nodes); err != nil {
		fmt.Fprintf(stderr, "kubesim explain: %v\n", err)
		return 2
	}
	if *output != "text" && *output != "json" {
		fmt.Fprintf(stderr, "kubesim explain: --output must be text or json, not %q\n", *output)
		return 2
	}
	namespace, name, ok := strings.Cut(*podArg, "/")
	if !ok {
		namespace, name = "default", *podArg
	}
	manifest, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim explain: %v\n", err)
		return 2
	}
	specs := sim.DefaultNodes(*nodes)
	if *scenario != "" {
		sc, ok := lookup(*scenario, stderr)
		if !ok {
			return 2
		}
		specs = sc.Cluster.NodeSpecs
		if len(specs) == 0 {
			specs = sim.DefaultNodes(max(sc.Cluster.Nodes, 1))
		}
	}

	ex, outcome, err := explainPod(ctx, specs, *seed, manifest, namespace, name)
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "kubesim explain: %v\n", err)
		}
		return 1
	}
	if *output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ex); err != nil {
			fmt.Fprintf(stderr, "kubesim explain: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprint(stdout, ex.String())
	fmt.Fprintf(stdout, "\nThen %s\n", outcome)
	return 0
}

// explainPod builds the cluster, applies the manifest and steps the cluster one unit of work at a
// time. Before each step in which the scheduler could take the pod (it waits in the activeQ), it asks
// the scheduler for an explanation; the last one before the pod is bound or marked unschedulable is
// the one of the cycle that decided. It returns that explanation and what the cycle did.
//
// The cluster is built without kube-scheduler, which is then started by hand: that is how a caller
// gets hold of the *scheduler.Scheduler to ask (sim.Cluster does not hand out the one it starts).
func explainPod(ctx context.Context, specs []sim.NodeSpec, seed int64, manifest []byte, namespace, name string) (*scheduler.Explanation, string, error) {
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: seed, ControllerManager: true, NodeSpecs: specs})
	if err != nil {
		return nil, "", err
	}
	defer c.Close()
	ks, err := c.StartScheduler(ctx, "kube-scheduler", "kube-scheduler")
	if err != nil {
		return nil, "", err
	}
	if _, err := c.Kubectl.Apply(ctx, manifest); err != nil {
		return nil, "", fmt.Errorf("kubectl apply -f: %w", err)
	}
	pods := client.For[api.Pod](c.Client("kubesim-explain", "kubesim-explain", apiserver.GroupMasters))
	deadline := c.Now().Add(explainMaxWait)
	var ex *scheduler.Explanation
	for c.Now().Before(deadline) {
		if err := c.Driver.Settle(ctx); err != nil {
			return nil, "", err
		}
		list, _, err := pods.List(ctx, namespace, client.ListOptions{})
		if err != nil {
			return nil, "", err
		}
		if pod := explainTarget(list, name); pod != nil {
			if !slices.Contains(ks.Scheduler.ProfileNames(), pod.Spec.SchedulerName) {
				return nil, "", fmt.Errorf("pod %s/%s names schedulerName %q, and kube-scheduler serves only %s: no scheduler will try it (it stays Pending, with no event)",
					pod.Namespace, pod.Name, pod.Spec.SchedulerName, strings.Join(ks.Scheduler.ProfileNames(), ", "))
			}
			if ex != nil {
				if outcome, tried := explainOutcome(pod); tried {
					return ex, outcome, nil
				}
			}
			if pod.Spec.NodeName != "" {
				return nil, "", fmt.Errorf("pod %s/%s was bound to %s without kube-scheduler (its manifest sets spec.nodeName): nothing to explain",
					pod.Namespace, pod.Name, pod.Spec.NodeName)
			}
			// The scheduler only ever takes a pod from its activeQ: explain it as it stands there.
			if ks.Scheduler.QueuePosition(pod) == "activeQ" {
				if ex, err = ks.Scheduler.Explain(pod); err != nil {
					return nil, "", err
				}
			}
		}
		more, err := c.Driver.Step(ctx)
		if err != nil {
			return nil, "", err
		}
		if !more {
			break
		}
	}
	if ex == nil {
		return nil, "", fmt.Errorf("no pod %s/%s appeared within %s of cluster time (after kubectl apply -f)", namespace, name, explainMaxWait)
	}
	return ex, "kube-scheduler did not try the pod again within " + explainMaxWait.String(), nil
}

// explainTarget picks the pod: the one named, or the first by name with the prefix before a
// trailing *.
func explainTarget(pods []*api.Pod, name string) *api.Pod {
	prefix, isPrefix := strings.CutSuffix(name, "*")
	var best *api.Pod
	for _, p := range pods {
		matches := p.Name == name || isPrefix && strings.HasPrefix(p.Name, prefix)
		if matches && (best == nil || p.Name < best.Name) {
			best = p
		}
	}
	return best
}

// explainOutcome reports whether the scheduler's cycle for the pod has run, and what it did.
func explainOutcome(p *api.Pod) (string, bool) {
	if p.Spec.NodeName != "" {
		return fmt.Sprintf("kube-scheduler bound %s/%s to %s.", p.Namespace, p.Name, p.Spec.NodeName), true
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled && c.Status == api.ConditionFalse {
			out := fmt.Sprintf("kube-scheduler left %s/%s Pending: PodScheduled=False (%s): %s", p.Namespace, p.Name, c.Reason, c.Message)
			if p.Status.NominatedNodeName != "" {
				out += fmt.Sprintf("\nIt preempted pods to make room and nominated %s.", p.Status.NominatedNodeName)
			}
			return out, true
		}
	}
	return "", false
}

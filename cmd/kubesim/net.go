// net.go: `kubesim net`, the cluster's networking as a learner inspects it. It boots a step-mode
// cluster, brings it to a state (a manifest applied and some cluster time passed, or a scenario
// played to its end), then prints:
//
//	kubesim net trace -f app.yaml --from client --to web:80         hop by hop, or where and why it fails
//	kubesim net trace --scenario dns --from node-dns --to web:80
//	kubesim net rules -f app.yaml [--node node-1]                    kube-proxy's rules, as iptables-save
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"kubesim/sim"
)

const netUsage = `usage:
  kubesim net trace (-f MANIFEST | --scenario NAME) --from POD --to NAME:PORT [--wait D] [--seed N]
  kubesim net rules (-f MANIFEST | --scenario NAME) [--node NODE] [--wait D] [--seed N]

Boots a step-mode cluster of 3 nodes and either applies MANIFEST and lets --wait of cluster time pass,
or plays the scenario NAME to its end (silently). Then:
  trace  walks from pod POD ("ns/name" or "name" in default) to NAME:PORT: DNS, the Service, the
         kube-proxy rules of POD's node, the endpoint, the pod's port; it stops at the first hop that
         fails and says why (exit status 1).
  rules  prints the rules kube-proxy wrote on NODE (default node-1), as iptables-save shows them.
`

func netCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub, code, ok := subcommand(args, netUsage, stderr, "trace", "rules")
	if !ok {
		return code
	}
	fs := newFlags("net "+sub, netUsage, stderr)
	file := fs.String("f", "", "manifest to apply (YAML or JSON, one or more documents)")
	scenario := fs.String("scenario", "", "play this scenario to its end instead of applying a manifest")
	wait := fs.Duration("wait", time.Minute, "cluster time to let pass after applying the manifest")
	seed := fs.Int64("seed", 1, "seed for every random choice: same seed, same answer")
	from := fs.String("from", "", "trace: the pod the connection starts from")
	to := fs.String("to", "", "trace: NAME:PORT, NAME a Service name, a DNS name or an IP")
	node := fs.String("node", "node-1", "rules: the node whose rules to print")
	rest, code, ok := parseCommand(fs, args[1:])
	if !ok {
		return code
	}
	if (*file == "") == (*scenario == "") || len(rest) > 0 || sub == "trace" && (*from == "" || *to == "") {
		fs.Usage()
		return 2
	}
	c, err := netCluster(ctx, *file, *scenario, *wait, *seed, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim net %s: %v\n", sub, err)
		return 1
	}
	defer c.Close()
	if sub == "rules" {
		rules, ok := c.ProxyRules(*node)
		if !ok {
			fmt.Fprintf(stderr, "kubesim net rules: no node %q (nodes: %v)\n", *node, c.NodeNames())
			return 2
		}
		fmt.Fprint(stdout, rules.IptablesSave())
		return 0
	}
	r, err := c.NetTrace(ctx, *from, *to)
	if err != nil {
		fmt.Fprintf(stderr, "kubesim net trace: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, r.String())
	if !r.Reached {
		return 1
	}
	return 0
}

// netCluster boots the cluster and brings it to the state to inspect.
func netCluster(ctx context.Context, file, scenario string, wait time.Duration, seed int64, stderr io.Writer) (*sim.Cluster, error) {
	cfg := sim.FullCluster(3)
	var sc sim.Scenario
	if scenario != "" {
		var ok bool
		if sc, ok = lookup(scenario, stderr); !ok {
			return nil, fmt.Errorf("no scenario %q", scenario)
		}
		cfg = sc.Cluster
	}
	cfg.Mode, cfg.Seed = sim.StepMode, seed
	c, err := sim.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if scenario != "" {
		// The scenario's own signs do not matter here: only the state it leaves.
		_ = sc.Run(ctx, sim.NewSession(c))
		return c, nil
	}
	manifest, err := os.ReadFile(file)
	if err == nil {
		_, err = c.Kubectl.Apply(ctx, manifest)
	}
	if err == nil {
		err = c.Driver.Advance(ctx, wait)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

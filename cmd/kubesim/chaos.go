// chaos.go: `kubesim chaos`, the chaos soak (chaos.Run): seeded random faults against a few
// Deployments, the invariants checked after every unit of work, and what it injected, checked and
// found printed at the end.
package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"kubesim/chaos"
)

func chaosCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("chaos", `usage: kubesim chaos [--seed N] [--duration D] [--nodes N] [--quiet]

Runs a step-mode cluster with a few Deployments and injects a random fault every 10s of cluster
time for --duration: kubelets stop and start, components are partitioned and healed, the
kube-controller-manager leader is killed, the kube-scheduler freezes, etcd slows down and is
compacted, two clients write the same Deployment at once, a pod admission webhook hangs. After
every unit of work it checks that no pod is bound twice, no ReplicaSet has more pods than replicas
+ maxSurge, no pod is on a node that does not exist and no Deployment is lost; once the faults
stop, every Deployment must become available. The same seed replays the same run. Exits 1 if an invariant broke.`, stderr)
	seed := fs.Int64("seed", 1, "the seed every fault is chosen with")
	duration := fs.Duration("duration", 10*time.Minute, "cluster time with faults (step mode: a minute takes well under a second)")
	nodes := fs.Int("nodes", 3, "worker nodes")
	quiet := fs.Bool("quiet", false, "print only the summary, not each fault")
	if code, ok := noArgs(fs, args); !ok {
		return code
	}
	if err := checkNodes("--nodes", *nodes); err != nil {
		fmt.Fprintf(stderr, "kubesim chaos: %v\n", err)
		return 2
	}
	if *duration <= 0 {
		fmt.Fprintf(stderr, "kubesim chaos: --duration must be positive, not %s\n", *duration)
		return 2
	}
	cfg := chaos.Config{Seed: *seed, Duration: *duration, Nodes: *nodes}
	if !*quiet {
		cfg.Log = func(line string) { fmt.Fprintln(stdout, line) }
	}
	report, err := chaos.Run(ctx, cfg)
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "kubesim chaos: %v\n", err)
		}
		return 1
	}
	fmt.Fprintf(stdout, "chaos soak, seed %d, %s of faults on %d nodes\n%s", *seed, *duration, *nodes, report)
	if len(report.Violations) > 0 || !report.Converged {
		return 1
	}
	return 0
}

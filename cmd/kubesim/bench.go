// bench.go: `kubesim bench`, kubesim's speed against baselines measured in the same run (sim.Bench
// says which).
package main

import (
	"context"
	"fmt"
	"io"

	"kubesim/sim"
)

func bench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench", `usage: kubesim bench [--ops N]

Measures, against raw etcd puts taken in the same run: pods created through every apiserver gate
(--ops creates at 16 clients), then a Deployment of 1000 replicas rolled out on a whole cluster.
Prints one line each, with the ratio to the baseline.`, stderr)
	ops := fs.Int("ops", 20000, "operations per measurement, at least 100")
	if code, ok := noArgs(fs, args); !ok {
		return code
	}
	if *ops < 100 {
		fmt.Fprintf(stderr, "kubesim bench: --ops must be at least 100, not %d\n", *ops)
		return 2
	}
	if err := sim.Bench(ctx, stdout, *ops); err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "kubesim bench: %v\n", err)
		}
		return 1
	}
	return 0
}

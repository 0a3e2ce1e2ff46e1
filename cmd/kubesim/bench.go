// bench.go: `kubesim bench [NAME...]`, kubesim's speed and size against baselines measured in the
// same run (bench.Benchmarks lists and runs them). Figures go to stdout as a table, or as JSON lines
// with --json; what is running now goes to stderr, in place on a terminal (one line rewritten with
// \r, which needs no progress-bar library: the benchmarks know their stage, not a percentage).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"

	"kubesim/api/resource"
	"kubesim/bench"
	"kubesim/sim"
)

func benchCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var list strings.Builder
	for _, b := range bench.Benchmarks {
		fmt.Fprintf(&list, "  %-12s %s\n", b.Name, b.Doc)
	}
	fs := newFlags("bench", `usage: kubesim bench [NAME...] [--json] [--nodes N] [--pods N] [--ops N]

Runs the named benchmarks (all of them, in this order, if none is named); each figure is measured
beside its baseline in the same run (raw etcd puts, the floor of a rollout's etcd writes):

`+list.String()+`
Prints a table of figures, or one JSON object per figure with --json (name, value, unit,
conditions, baseline). BENCHMARKS.md has the latest figures and the machine they came from.`, stderr)
	asJSON := fs.Bool("json", false, "one JSON object per figure instead of a table")
	ops := fs.Int("ops", 20000, "create-path: creates per client count, at least 100")
	nodes := fs.Int("nodes", 5000, fmt.Sprintf("envelope: nodes; watch: watchers, one per node (1..%d)", maxNodes))
	pods := fs.Int("pods", 150000, "envelope: pods, in Deployments of mixed sizes")
	speed := fs.Float64("speed", bench.DefaultEnvelopeSpeed, "envelope: how many times faster than the wall clock the cluster runs (1: real time; the nodes' periodic work grows with it)")
	memProfile := fs.String("memprofile", "", "envelope: write a heap profile of the whole cluster to this file at its end")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (every benchmark named) to this file")
	gcPercent := fs.Int("gogc", sim.GCPercent, "the garbage collector's GOGC while the benchmarks run (-1: off, the memory limit alone paces it)")
	memLimit := fs.String("memory-limit", "", "the Go runtime's soft memory limit while the benchmarks run, a quantity such as 6Gi, or auto: envelope sizes it from its nodes and pods (default: GOMEMLIMIT's, or none)")
	names, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	for _, name := range names {
		if !slices.ContainsFunc(bench.Benchmarks, func(b bench.Benchmark) bool { return b.Name == name }) {
			fmt.Fprintf(stderr, "kubesim bench: unknown benchmark %q; there are:\n%s", name, list.String())
			return 2
		}
	}
	if *ops < 100 {
		fmt.Fprintf(stderr, "kubesim bench: --ops must be at least 100, not %d\n", *ops)
		return 2
	}
	if err := checkNodes("--nodes", *nodes); err != nil {
		fmt.Fprintf(stderr, "kubesim bench: %v\n", err)
		return 2
	}
	if math.IsNaN(*speed) || *speed < minSpeed || *speed > maxBenchSpeed {
		fmt.Fprintf(stderr, "kubesim bench: --speed must be %g..%g (how many times faster than the wall clock the envelope's cluster runs; 1 is real time), not %g\n", minSpeed, float64(maxBenchSpeed), *speed)
		return 2
	}
	if *pods < 1 {
		fmt.Fprintf(stderr, "kubesim bench: --pods must be at least 1, not %d\n", *pods)
		return 2
	}
	var limit int64
	auto := *memLimit == "auto"
	if *memLimit != "" && !auto {
		q, err := resource.ParseQuantity(*memLimit)
		if err != nil || q.Sign() <= 0 {
			fmt.Fprintf(stderr, "kubesim bench: --memory-limit must be a positive quantity such as 6Gi, not %q\n", *memLimit)
			return 2
		}
		limit = q.Value()
	}
	switch {
	case *gcPercent == 0:
		fmt.Fprintf(stderr, "kubesim bench: --gogc must be positive, or -1 for off, not 0\n")
		return 2
	case *gcPercent < 0 && limit == 0 && os.Getenv("GOMEMLIMIT") == "":
		fmt.Fprintf(stderr, "kubesim bench: --gogc -1 needs --memory-limit (or GOMEMLIMIT): with neither, nothing would collect garbage\n")
		return 2
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "kubesim bench: --cpuprofile: %v\n", err)
			return 1
		}
		defer stop()
	}
	progress := progressLine(stderr)
	figures, err := bench.Run(ctx, names, bench.Options{Ops: *ops, Nodes: *nodes, Pods: *pods, Speed: *speed,
		MemProfile: *memProfile, GCPercent: *gcPercent, MemoryLimit: limit, AutoMemoryLimit: auto, Progress: progress})
	progress("")
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, f := range figures {
			if err := enc.Encode(f); err != nil {
				return 1
			}
		}
	} else {
		printFigures(stdout, figures)
	}
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "kubesim bench: %v\n", err)
		}
		return 1
	}
	return 0
}

// progressLine shows what runs now: on a terminal, one line rewritten in place ("" clears it);
// elsewhere (a file, a pipe) each line once, so a log keeps the intermediate results.
func progressLine(w io.Writer) func(string) {
	f, ok := w.(*os.File)
	if fi, err := os.Stat("/dev/null"); ok && err == nil {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && !os.SameFile(st, fi) {
			return func(line string) {
				fmt.Fprintf(w, "\r\033[K%s", line)
			}
		}
	}
	return func(line string) {
		if line != "" {
			fmt.Fprintln(w, line)
		}
	}
}

// printFigures is the summary table: each figure beside its baseline and its conditions.
func printFigures(w io.Writer, figures []bench.Figure) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tVALUE\tBASELINE\tCONDITIONS")
	for _, f := range figures {
		base := "-"
		if f.Baseline != nil {
			base = fmt.Sprintf("%s %s (%s)", number(f.Baseline.Value), f.Baseline.Unit, f.Baseline.Name)
		}
		var cond []string
		for _, k := range slices.Sorted(maps.Keys(f.Conditions)) {
			cond = append(cond, fmt.Sprintf("%s=%v", k, f.Conditions[k]))
		}
		fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\n", f.Name, number(f.Value), f.Unit, base, strings.Join(cond, " "))
	}
	tw.Flush()
}

// number prints a figure with three significant digits at most, and no exponent.
func number(v float64) string {
	switch {
	case v >= 100 || v <= -100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10 || v <= -10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// maxBenchSpeed bounds the envelope's clock: beyond it a node's Lease, due every 10 s of cluster
// time, would be due more often than a loaded machine can schedule the kubelet that renews it.
const maxBenchSpeed = 100

// startCPUProfile profiles the process into path until the returned stop is called; the file is
// created before anything runs, so a path that cannot be written fails the command at once.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

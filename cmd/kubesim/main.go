// Command kubesim runs a Kubernetes control plane in miniature on an embedded etcd and plays
// scenarios on it with a readable trace of who did what, and why.
//
//	kubesim list                      the scenario catalogue
//	kubesim describe NAME             what a scenario teaches and which signs to look for
//	kubesim run NAME [flags]          play a scenario (kubesim run --help for the flags)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"kubesim/sim"
	"kubesim/sim/narrate"
)

const usage = `kubesim: a Kubernetes control plane in miniature, for learning.

Usage:
  kubesim list                 list the scenarios
  kubesim describe NAME        what a scenario teaches and which signs to look for
  kubesim run NAME [flags]     play a scenario in step mode (kubesim run --help)
  kubesim explain -f MANIFEST --pod NS/NAME   why the scheduler puts a pod where it does
  kubesim bench [--ops N]      measure kubesim against baselines taken in the same run
  kubesim help                 this text
`

func main() {
	debug.SetGCPercent(sim.GCPercent)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "list":
		return list(stdout)
	case "describe":
		return describe(args[1:], stdout, stderr)
	case "run":
		return runScenario(ctx, args[1:], stdin, stdout, stderr)
	case "bench":
		return bench(ctx, args[1:], stdout, stderr)
	case "explain":
		return explain(ctx, args[1:], stdout, stderr)
	case "snapshot":
		return snapshot(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "kubesim: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func list(stdout io.Writer) int {
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tWHAT IT SHOWS")
	for _, s := range sim.Scenarios() {
		fmt.Fprintf(w, "%s\t%s\n", s.Name, s.Summary)
	}
	w.Flush()
	return 0
}

func lookup(name string, stderr io.Writer) (sim.Scenario, bool) {
	sc, ok := sim.Lookup(name)
	if !ok {
		var names []string
		for _, s := range sim.Scenarios() {
			names = append(names, s.Name)
		}
		fmt.Fprintf(stderr, "kubesim: no scenario named %q; the scenarios are: %s\n", name, strings.Join(names, ", "))
	}
	return sc, ok
}

func describe(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: kubesim describe NAME (kubesim list shows the names)")
		return 2
	}
	sc, ok := lookup(args[0], stderr)
	if !ok {
		return 2
	}
	fmt.Fprintf(stdout, "%s: %s\n\n%s\n", sc.Name, sc.Summary, sc.Teaches)
	return 0
}

func runScenario(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	traceFormat := fs.String("trace", "text", "how to tell the trace: text, json (one object per line) or mermaid")
	lang := fs.String("lang", "en", "language of the text story: en or zh")
	seed := fs.Int64("seed", 1, "seed for every random choice (names, UIDs, tie-breaks): same seed, same trace")
	verbose := fs.Bool("verbose", false, "show every gate of every request, components' included")
	step := fs.Bool("step", false, "pause after each step until Enter is pressed")
	out := fs.String("out", "", "write the trace to this file instead of standard output")
	file := fs.String("f", "", "play the scenario in this YAML file instead of a built-in one (see examples/scenarios)")
	until := fs.String("until", "", `stop as soon as a condition holds, e.g. "pods bound", "deployment nginx available"`)
	steps := fs.Int("steps", 0, "stop after this many units of work (0 = run to the end)")
	nodes := fs.Int("nodes", 0, "run the scenario on this many default nodes instead of its own (0 = the scenario's)")
	speed := fs.Float64("speed", 0, "play in real time, the clock sped up this many times (60: a minute a second), instead of step mode")
	color := fs.String("color", "auto", "colour the text story: auto (when writing to a terminal), always, never")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kubesim run NAME [flags]   or   kubesim run -f scenario.yaml [flags]\n\nPlays a scenario in step mode on a fresh embedded etcd. Flags:")
		fs.PrintDefaults()
	}
	name, rest := "", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, rest = args[0], args[1:]
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if name == "" && fs.NArg() > 0 {
		name = fs.Arg(0)
	}
	var sc sim.Scenario
	switch {
	case *file != "" && name != "":
		fmt.Fprintln(stderr, "kubesim run: give a scenario name or -f FILE, not both")
		return 2
	case *file != "":
		loaded, err := sim.LoadScenarioFile(*file)
		if err != nil {
			fmt.Fprintf(stderr, "kubesim run: %v\n", err)
			return 2
		}
		sc = loaded
	case name == "":
		fs.Usage()
		return 2
	default:
		found, ok := lookup(name, stderr)
		if !ok {
			return 2
		}
		sc = found
	}
	if *nodes > 0 {
		if len(sc.Cluster.NodeSpecs) > 0 {
			fmt.Fprintf(stderr, "kubesim run: --nodes: scenario %s shapes its own nodes (labels, taints, sizes); it cannot be resized\n", sc.Name)
			return 2
		}
		if sc.Cluster.Nodes == 0 {
			fmt.Fprintf(stderr, "kubesim run: --nodes: scenario %s runs no nodes\n", sc.Name)
			return 2
		}
		sc.Cluster.Nodes = *nodes
	}
	var cond sim.Condition
	if *until != "" {
		c, err := sim.ParseCondition(*until)
		if err != nil {
			fmt.Fprintf(stderr, "kubesim run: --until: %v\n", err)
			return 2
		}
		cond = c
	}
	if *traceFormat != "text" && *traceFormat != "json" && *traceFormat != "mermaid" {
		fmt.Fprintf(stderr, "kubesim run: --trace must be text, json or mermaid, not %q\n", *traceFormat)
		return 2
	}

	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "kubesim: --out: %v\n", err)
			return 2
		}
		defer f.Close()
		w = f
	}
	useColor := false
	switch *color {
	case "always":
		useColor = true
	case "auto":
		useColor = *out == "" && isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	case "never":
	default:
		fmt.Fprintf(stderr, "kubesim: --color must be auto, always or never, not %q\n", *color)
		return 2
	}
	if *speed < 0 {
		fmt.Fprintln(stderr, "kubesim run: --speed must be positive")
		return 2
	}
	if *speed > 0 && sc.StepOnly {
		fmt.Fprintf(stderr, "kubesim run: scenario %s plays in step mode only (its signs are counted in steps or exact cluster times): leave out --speed\n", sc.Name)
		return 2
	}
	if *speed > 0 && (*step || *steps > 0) {
		fmt.Fprintln(stderr, "kubesim run: --step and --steps need step mode; leave out --speed")
		return 2
	}
	width := narrate.DefaultWidth
	if f, ok := w.(*os.File); ok {
		width = narrate.TerminalWidth(f)
	}
	opts := sim.PlayOptions{Seed: *seed, Out: w, Until: cond, MaxSteps: *steps, Speed: *speed,
		Narrate: narrate.Options{Format: *traceFormat, Lang: *lang, Verbose: *verbose, Color: useColor,
			Width: width, Catalog: sim.Catalog(sim.ScenarioZH(sc))}}
	if *step {
		in := bufio.NewReader(stdin)
		opts.Pause = func() {
			fmt.Fprint(stderr, opts.Narrate.Sprintf("-- press Enter for the next step --"))
			in.ReadString('\n')
		}
	}
	if err := sim.Play(ctx, sc, opts); err != nil {
		if *traceFormat != "text" || *out != "" {
			fmt.Fprintf(stderr, "kubesim: scenario %s failed: %v\n", sc.Name, err)
		}
		return 1
	}
	return 0
}

func bench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ops := fs.Int("ops", 20000, "operations per measurement")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *ops < 100 {
		fmt.Fprintln(stderr, "kubesim bench: --ops must be at least 100")
		return 2
	}
	if err := sim.Bench(ctx, stdout, *ops); err != nil {
		fmt.Fprintf(stderr, "kubesim bench: %v\n", err)
		return 1
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

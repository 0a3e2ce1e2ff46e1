// run.go: `kubesim run`, playing a scenario (built-in or from a file) with its story on stdout.
//
//	kubesim run create-deployment
//	kubesim run node-down --speed 60
//	kubesim run -f examples/scenarios/self-healing.yaml --step
//	kubesim run taints --with -TaintToleration          (run_with.go: a story diff)
//
// Every flag is checked before the cluster starts, and every error is printed, in every trace mode:
// a failure the text story told in its last line is not repeated on the terminal that shows it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"kubesim/narrate"
	"kubesim/script"
	"kubesim/sim"
)

const runUsage = `usage: kubesim run NAME [flags]   or   kubesim run -f scenario.yaml [flags]

Plays a scenario on a fresh embedded etcd, in step mode unless --speed says real time, and tells
what every component does: a short story along the article's steps (--verbose: the whole story).
Flags may come before or after NAME. At a --step or --break prompt, Enter runs the next step, help
lists the commands (get, describe, etcd get, queue, ...), and q stops the run.`

// runFlags are run's flags, as newRunFlags defines them.
type runFlags struct {
	traceFormat, lang, out, file, until, color, follow *string
	seed                                               *int64
	verbose, debug, step                               *bool
	steps, nodes                                       *int
	speed                                              *float64
	breaks                                             *breakList
	with                                               *withList
}

// newRunFlags defines run's flags (completion.go lists them too).
func newRunFlags(stderr io.Writer) (*flag.FlagSet, *runFlags) {
	fs := newFlags("run", runUsage, stderr)
	breaks, with := &breakList{}, &withList{}
	fs.Var(breaks, "break", `pause before an action (repeatable): "scheduler bind", "kubelet StartContainer node-2", "apiserver admit", "etcd put /registry/pods"`)
	fs.Var(with, "with", `play with another component (repeatable) and show where the story parts from the reference: -PLUGIN or -CONTROLLER turns a default one off ("-TaintToleration", "-endpoints-controller"); lab:LAB plays your code of examples/labs/LAB (go run, in the source tree)`)
	return fs, &runFlags{
		breaks:      breaks,
		with:        with,
		traceFormat: fs.String("trace", "text", "how to tell the trace: text, json (one object per line) or mermaid"),
		lang:        fs.String("lang", "en", "language of the text story: en or zh"),
		seed:        fs.Int64("seed", 1, "seed for every random choice (names, UIDs, tie-breaks): same seed, same trace"),
		verbose:     fs.Bool("verbose", false, "tell the whole story: every line of every component (by default, a short story along the article's steps)"),
		debug:       fs.Bool("debug", false, "tell everything --verbose does and every gate of every request, components' included"),
		follow:      fs.String("follow", "", "tell only what touches one object, KIND/NAME: pod/nginx-77bf8679f9-fbb92, deployment/nginx"),
		step:        fs.Bool("step", false, "pause after each step that tells something, at a prompt (help lists its commands; q, or the end of input, stops the run)"),
		out:         fs.String("out", "", "write the trace to this file instead of standard output"),
		file:        fs.String("f", "", "play the scenario in this YAML file instead of a built-in one (see examples/scenarios)"),
		until:       fs.String("until", "", `stop as soon as a condition holds, e.g. "pods bound", "deployment nginx available"; the run fails if it never does (on a terminal: pause there, at the prompt)`),
		steps:       fs.Int("steps", 0, "stop after this many units of work (0 = run to the end)"),
		nodes:       fs.Int("nodes", 0, fmt.Sprintf("run the scenario on this many default nodes, 1..%d, instead of its own (0 = the scenario's)", maxNodes)),
		speed:       fs.Float64("speed", 0, fmt.Sprintf("play in real time, the clock sped up this many times, %g..%g (60: a minute a second), instead of step mode", minSpeed, maxSpeed)),
		color:       fs.String("color", "auto", "colour the text story: auto (when writing to a terminal), always, never"),
	}
}

func runScenario(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, flags := newRunFlags(stderr)
	name, code, ok := parseName(fs, args)
	if !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "kubesim run: "+format+"\n", args...)
		return 2
	}

	// The scenario.
	sc, ok := chosenScenario("run", name, *flags.file, fs, stderr)
	if !ok {
		return 2
	}

	swaps, code, done := withSwaps(ctx, sc, name, flags, set, stdout, stderr)
	if done {
		return code
	}

	// The flags, each against its range, before anything starts.
	// narrate.New checks the language only for the text story: check it on its own too, so that
	// --lang fr is an error whatever --trace says.
	// The short story by default; --verbose the whole one; --debug every gate too.
	narration := narrate.Options{Format: *flags.traceFormat, Lang: *flags.lang, Short: !*flags.verbose && !*flags.debug,
		Verbose: *flags.debug, Follow: *flags.follow}
	if _, err := narrate.New(io.Discard, narrate.Options{Format: *flags.traceFormat}); err != nil {
		return fail("--trace: %v", err)
	}
	if _, err := narrate.New(io.Discard, narrate.Options{Lang: *flags.lang}); err != nil {
		return fail("--lang: %v", err)
	}
	if _, err := narrate.New(io.Discard, narrate.Options{Follow: *flags.follow}); err != nil {
		return fail("--follow: %v", err)
	}
	if set["nodes"] {
		if err := checkNodes("--nodes", *flags.nodes); err != nil {
			return fail("%v", err)
		}
		if len(sc.Cluster.NodeSpecs) > 0 {
			return fail("--nodes: scenario %s shapes its own nodes (labels, taints, sizes); it cannot be resized", sc.Name)
		}
		if sc.Cluster.Nodes == 0 {
			return fail("--nodes: scenario %s runs no nodes", sc.Name)
		}
		sc.Cluster.Nodes = *flags.nodes
	}
	var cond sim.Condition
	if *flags.until != "" {
		var err error
		if cond, err = script.ParseCondition(*flags.until); err != nil {
			return fail("--until: %v", err)
		}
	}
	var breaks []sim.Breakpoint
	for _, b := range *flags.breaks {
		bp, err := sim.ParseBreakpoint(b)
		if err != nil {
			return fail("--break: %v", err)
		}
		breaks = append(breaks, bp)
	}
	if *flags.steps < 0 {
		return fail("--steps must be at least 1 (or 0, the default: run to the end), not %d", *flags.steps)
	}
	if set["speed"] {
		if err := checkSpeed(*flags.speed); err != nil {
			return fail("%v", err)
		}
		if sc.StepOnly {
			return fail("scenario %s plays in step mode only (its signs are counted in steps or exact cluster times): leave out --speed", sc.Name)
		}
		if *flags.step || *flags.steps > 0 || len(breaks) > 0 {
			return fail("--step, --steps and --break need step mode; leave out --speed")
		}
	}
	useColor := false
	switch *flags.color {
	case "always":
		useColor = true
	case "auto":
		useColor = *flags.out == "" && isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	case "never":
	default:
		return fail("--color must be auto, always or never, not %q", *flags.color)
	}
	narration.Color = useColor
	narration.Catalog = sim.Catalog(sc.ZH)

	w := stdout
	if *flags.out != "" {
		f, err := os.Create(*flags.out)
		if err != nil {
			return fail("--out: %v", err)
		}
		defer f.Close()
		w = f
	}
	if f, ok := w.(*os.File); ok {
		narration.Width = narrate.TerminalWidth(f)
	}
	opts := sim.PlayOptions{Seed: *flags.seed, Out: w, Until: cond, MaxSteps: *flags.steps, Speed: *flags.speed, Narrate: narration,
		Breaks: breaks}
	// A prompt at every step (--step), at each breakpoint, and where --until holds when a learner is
	// at the keyboard to use it.
	// A terminal answers the window-size ioctl; /dev/null, a character device too, does not.
	in, isFile := stdin.(*os.File)
	interactive := cond != nil && *flags.speed == 0 && isFile && narrate.TerminalWidth(in) > 0
	if *flags.step || len(breaks) > 0 || interactive {
		con := newConsole(ctx, promptReader(ctx, stdin, stderr), stdout, narration.Sprintf)
		switch {
		case interactive:
			con.resume.Until(cond)
			opts.Until = nil
		case !*flags.step:
			con.resume.Continue()
		}
		opts.Pause = con.pause
	}
	if len(swaps) > 0 {
		return playWith(ctx, sc, opts, swaps, w, stderr)
	}
	err := sim.Play(ctx, sc, opts)
	switch {
	case err == nil:
		return 0
	case ctx.Err() != nil:
		return 1 // run reports the interruption
	case !sim.ToldInStory(err) || *flags.traceFormat != "text" || *flags.out != "":
		fmt.Fprintf(stderr, "kubesim: scenario %s failed: %v\n", sc.Name, err)
	}
	return 1
}

// breakList is --break, given once per breakpoint.
type breakList []string

func (b *breakList) String() string     { return strings.Join(*b, ", ") }
func (b *breakList) Set(s string) error { *b = append(*b, s); return nil }

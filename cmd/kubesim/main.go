// Command kubesim runs a Kubernetes control plane in miniature on an embedded etcd and plays
// scenarios on it with a readable trace of who did what, and why.
//
//	kubesim list                      the scenario catalogue
//	kubesim describe NAME             what a scenario teaches and which signs to look for
//	kubesim run NAME [flags]          play a scenario (kubesim help run for the flags)
//
// main.go is the dispatch to the commands and the commands that only print: list, describe, help.
// run.go plays a scenario, explain.go explains a scheduling decision, bench.go measures, version.go
// and completion.go describe kubesim itself; signals.go and flags.go are shared by all of them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"

	"kubesim/narrate"
	"kubesim/scenarios"
	"kubesim/script"
	"kubesim/sim"
)

const usage = `kubesim: a Kubernetes control plane in miniature, for learning.

Usage:
  kubesim list                 list the scenarios
  kubesim describe NAME        what a scenario teaches and which signs to look for
  kubesim describe -f FILE     the same for a scenario file
  kubesim run NAME [flags]     play a scenario in step mode (kubesim help run)
  kubesim explain -f MANIFEST --pod NS/NAME   why the scheduler puts a pod where it does
  kubesim serve [flags]        a cluster the real kubectl drives (prints the export KUBECONFIG line)
  kubesim step [N | --until COND]  move a kubesim serve --step cluster on (from another terminal)
  kubesim web [NAME]           a page that shows a scenario stepping, with next/section/continue buttons
  kubesim net trace|rules      can a pod reach NAME:PORT, hop by hop; a node's kube-proxy rules
  kubesim lab list | check NAME  teaching exercises graded by go test (examples/labs)
  kubesim snapshot save|restore   etcd's snapshot of the cluster, and a new etcd restored from one
  kubesim bench [NAME...]      measure kubesim against baselines taken in the same run
  kubesim chaos [--seed N]     random faults, invariants checked all the while (kubesim help chaos)
  kubesim version              the version of kubesim and of the Go it was built with
  kubesim completion SHELL     a completion script for bash, zsh or fish
  kubesim help [COMMAND]       this text, or a command's flags
`

// commands are the names run dispatches on, in the order usage lists them (completion offers them).
var commands = []string{"list", "describe", "run", "explain", "serve", "step", "web", "net", "lab", "snapshot", "bench", "chaos", "version", "completion", "help"}

func main() {
	debug.SetGCPercent(sim.GCPercent)
	ctx, cancel, stop := withSignals(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, pipeWriter{os.Stdout, cancel}, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit status. A run that ctx's cancellation
// stopped (a signal) exits with 128 + the signal's number, whatever the command made of it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	code := dispatch(ctx, args, stdin, stdout, stderr)
	if status := interrupted(ctx, stderr); status != 0 {
		return status
	}
	return code
}

func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "list":
		return list(args[1:], stdout, stderr)
	case "describe":
		return describe(args[1:], stdout, stderr)
	case "run":
		return runScenario(ctx, args[1:], stdin, stdout, stderr)
	case "bench":
		return benchCommand(ctx, args[1:], stdout, stderr)
	case "chaos":
		return chaosCommand(ctx, args[1:], stdout, stderr)
	case "explain":
		return explain(ctx, args[1:], stdout, stderr)
	case "version":
		return version(args[1:], stdout, stderr)
	case "completion":
		return completion(args[1:], stdout, stderr)
	case "net":
		return netCommand(ctx, args[1:], stdout, stderr)
	case "serve":
		return serve(ctx, args[1:], stdin, stdout, stderr)
	case "step":
		return step(ctx, args[1:], stdout, stderr)
	case "web":
		return webCommand(ctx, args[1:], stdout, stderr)
	case "lab":
		return labCommand(ctx, args[1:], stdout, stderr)
	case "snapshot":
		return snapshot(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		if len(args) == 2 && args[0] == "help" && args[1] != "help" {
			if !slices.Contains(commands, args[1]) {
				fmt.Fprintf(stderr, "kubesim help: unknown command %q\n\n%s", args[1], usage)
				return 2
			}
			// Every command prints its help on stdout when asked with --help.
			return dispatch(ctx, []string{args[1], "--help"}, stdin, stdout, stdout)
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "kubesim: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// newFlags is a command's flag set: errors and help on stderr, help as usage followed by the flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), strings.TrimSuffix(usage, "\n"))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// noArgs parses the flags of a command that takes no arguments.
func noArgs(fs *flag.FlagSet, args []string) (code int, ok bool) {
	rest, code, ok := parseCommand(fs, args)
	switch {
	case !ok:
		return code, false
	case len(rest) > 0:
		fmt.Fprintf(fs.Output(), "kubesim %s takes no arguments, got: %s\n", fs.Name(), strings.Join(rest, " "))
		return 2, false
	}
	return 0, true
}

func list(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", "usage: kubesim list [--lang en|zh]\n\nLists the built-in scenarios, one a line: its name and what it shows.", stderr)
	lang := fs.String("lang", "en", "language of the summaries: en or zh")
	if code, ok := noArgs(fs, args); !ok {
		return code
	}
	if !checkLang("list", *lang, stderr) {
		return 2
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tWHAT IT SHOWS")
	for _, s := range scenarios.All() {
		summary, _ := inLang(s, *lang)
		fmt.Fprintf(w, "%s\t%s\n", s.Name, summary)
	}
	w.Flush()
	return 0
}

// checkLang checks --lang as run does (narrate knows the languages), printing the error.
func checkLang(cmd, lang string, stderr io.Writer) bool {
	if _, err := narrate.New(io.Discard, narrate.Options{Lang: lang}); err != nil {
		fmt.Fprintf(stderr, "kubesim %s: --lang: %v\n", cmd, err)
		return false
	}
	return true
}

// inLang is a scenario's summary and teaching text in lang, the English where there is no Chinese
// (a scenario file without summary_zh).
func inLang(sc sim.Scenario, lang string) (summary, teaches string) {
	if lang == "zh" && sc.SummaryZH != "" {
		return sc.SummaryZH, sc.TeachesZH
	}
	return sc.Summary, sc.Teaches
}

func lookup(name string, stderr io.Writer) (sim.Scenario, bool) {
	sc, ok := scenarios.Lookup(name)
	if !ok {
		var names []string
		for _, s := range scenarios.All() {
			names = append(names, s.Name)
		}
		fmt.Fprintf(stderr, "kubesim: no scenario named %q; the scenarios are: %s\n", name, strings.Join(names, ", "))
	}
	return sc, ok
}

// chosenScenario is the scenario a command names: a built-in NAME or -f FILE. When the choice is
// wrong it tells stderr why (the command's usage when there is neither) and returns false.
func chosenScenario(command, name, file string, fs *flag.FlagSet, stderr io.Writer) (sim.Scenario, bool) {
	switch {
	case file != "" && name != "":
		fmt.Fprintf(stderr, "kubesim %s: give a scenario name or -f FILE, not both\n", command)
	case file != "":
		sc, err := script.Load(file)
		if err == nil {
			return sc, true
		}
		fmt.Fprintf(stderr, "kubesim %s: %v\n", command, err)
	case name == "":
		fs.Usage()
	default:
		return lookup(name, stderr)
	}
	return sim.Scenario{}, false
}

func describe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("describe", `usage: kubesim describe NAME [--lang zh]   or   kubesim describe -f scenario.yaml [--lang zh]

Prints what a scenario teaches and which signs to look for (kubesim list shows the names).`, stderr)
	file := fs.String("f", "", "describe the scenario in this YAML file (its summary and teaches) instead of a built-in one")
	lang := fs.String("lang", "en", "language of the description: en or zh")
	name, code, ok := parseName(fs, args)
	if !ok {
		return code
	}
	if !checkLang("describe", *lang, stderr) {
		return 2
	}
	sc, ok := chosenScenario("describe", name, *file, fs, stderr)
	if !ok {
		return 2
	}
	summary, teaches := inLang(sc, *lang)
	fmt.Fprintf(stdout, "%s: %s\n", sc.Name, summary)
	if teaches != "" {
		fmt.Fprintf(stdout, "\n%s\n", teaches)
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

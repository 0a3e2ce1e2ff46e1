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
	"kubesim/scenarios"
	"kubesim/script"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"kubesim/sim"
)

const usage = `kubesim: a Kubernetes control plane in miniature, for learning.

Usage:
  kubesim list                 list the scenarios
  kubesim describe NAME        what a scenario teaches and which signs to look for
  kubesim describe -f FILE     the same for a scenario file
  kubesim run NAME [flags]     play a scenario in step mode (kubesim help run)
  kubesim explain -f MANIFEST --pod NS/NAME   why the scheduler puts a pod where it does
  kubesim bench [NAME...]      measure kubesim against baselines taken in the same run
  kubesim version              the version of kubesim and of the Go it was built with
  kubesim completion SHELL     a completion script for bash, zsh or fish
  kubesim help [COMMAND]       this text, or a command's flags
`

// commands are the names run dispatches on, in the order usage lists them (completion offers them).
var commands = []string{"list", "describe", "run", "explain", "bench", "version", "completion", "help"}

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
		return bench(ctx, args[1:], stdout, stderr)
	case "explain":
		return explain(ctx, args[1:], stdout, stderr)
	case "version":
		return version(args[1:], stdout, stderr)
	case "completion":
		return completion(args[1:], stdout, stderr)
	case "net":
		return netCommand(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		if len(args) == 2 && args[0] == "help" && args[1] != "help" {
			if !isCommand(args[1]) {
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

func isCommand(name string) bool {
	for _, c := range commands {
		if c == name {
			return true
		}
	}
	return false
}

// newFlags is a command's flag set: errors and help on stderr, help as usage followed by the flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
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
	rest, err := parseArgs(fs, args)
	switch {
	case helpRequested(err):
		return 0, false
	case err != nil:
		return 2, false
	case len(rest) > 0:
		fmt.Fprintf(fs.Output(), "kubesim %s takes no arguments, got: %s\n", fs.Name(), strings.Join(rest, " "))
		return 2, false
	}
	return 0, true
}

func list(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", "usage: kubesim list\n\nLists the built-in scenarios, one a line: its name and what it shows.", stderr)
	if code, ok := noArgs(fs, args); !ok {
		return code
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tWHAT IT SHOWS")
	for _, s := range scenarios.All() {
		fmt.Fprintf(w, "%s\t%s\n", s.Name, s.Summary)
	}
	w.Flush()
	return 0
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

func describe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("describe", `usage: kubesim describe NAME   or   kubesim describe -f scenario.yaml

Prints what a scenario teaches and which signs to look for (kubesim list shows the names).`, stderr)
	file := fs.String("f", "", "describe the scenario in this YAML file (its summary and teaches) instead of a built-in one")
	names, err := parseArgs(fs, args)
	if helpRequested(err) {
		return 0
	}
	if err != nil {
		return 2
	}
	name, err := oneName("describe", names)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	var sc sim.Scenario
	switch {
	case *file != "" && name != "":
		fmt.Fprintln(stderr, "kubesim describe: give a scenario name or -f FILE, not both")
		return 2
	case *file != "":
		if sc, err = script.Load(*file); err != nil {
			fmt.Fprintf(stderr, "kubesim describe: %v\n", err)
			return 2
		}
	case name == "":
		fs.Usage()
		return 2
	default:
		var ok bool
		if sc, ok = lookup(name, stderr); !ok {
			return 2
		}
	}
	fmt.Fprintf(stdout, "%s: %s\n", sc.Name, sc.Summary)
	if sc.Teaches != "" {
		fmt.Fprintf(stdout, "\n%s\n", sc.Teaches)
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

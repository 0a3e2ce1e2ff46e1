// Command swap plays any scenario with a lab's component in the cluster (your code, as it is in
// examples/labs/LAB, compiled now; with -tags solution, the reference solution), tells its story,
// then plays the scenario again with the built-in components and shows where the two stories part:
// the first line that differs, the step of the scenario, the reference line and yours.
//
//	go run ./examples/labs/swap crashloop-backoff crash-loop
//	go run ./examples/labs/swap --story=false endpoints-controller service
//	go run -tags solution ./examples/labs/swap filter-plugin node-selector-affinity
//	kubesim run crash-loop --with lab:crashloop-backoff     (runs the first line for you)
//
// Why a program of its own: a binary runs only the code compiled into it, and your component is Go
// code in your tree. Go's plugin package could load it into a kubesim built earlier, but only on
// some systems and with the exact same toolchain and dependencies; `go run` compiles it with the
// rest of the cluster, every time, everywhere.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	admissionlatest "kubesim/examples/labs/admission-latest"
	crashloopbackoff "kubesim/examples/labs/crashloop-backoff"
	endpointscontroller "kubesim/examples/labs/endpoints-controller"
	filterplugin "kubesim/examples/labs/filter-plugin"
	replicasetexpectations "kubesim/examples/labs/replicaset-expectations"
	scoreplugin "kubesim/examples/labs/score-plugin"
	"kubesim/lab"
	"kubesim/narrate"
	"kubesim/scenarios"
	"kubesim/sim"
)

// swappable are the labs whose component can take a place in any scenario, with the probe that
// tells whether you have started (nil: your story says so, in a TODO line). The informer and leader
// election labs build pieces that no scenario swaps: their graders are where they run.
var swappable = []struct {
	name    string
	swap    func() lab.Swap
	started func() error
}{
	{"filter-plugin", filterplugin.Swap, filterplugin.Started},
	{"score-plugin", scoreplugin.Swap, scoreplugin.Started},
	{"admission-latest", admissionlatest.Swap, admissionlatest.Started},
	{"crashloop-backoff", crashloopbackoff.Swap, crashloopbackoff.Started},
	{"replicaset-expectations", replicasetexpectations.Swap, nil},
	{"endpoints-controller", endpointscontroller.Swap, nil},
}

const usage = `usage: go run ./examples/labs/swap [flags] LAB SCENARIO

Plays SCENARIO (kubesim list shows them) with LAB's component in the cluster, tells its story, and
compares it line by line with the story the built-in components tell. LAB is one of:
  %s
Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var names []string
	for _, s := range swappable {
		names = append(names, s.name)
	}
	fs := flag.NewFlagSet("swap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, usage, strings.Join(names, ", "))
		fs.PrintDefaults()
	}
	seed := fs.Int64("seed", 1, "seed for every random choice: same seed, same story")
	verbose := fs.Bool("verbose", false, "tell your whole story (by default, the short one)")
	story := fs.Bool("story", true, "tell your story before the diff")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	labName, scenario := fs.Arg(0), fs.Arg(1)
	sc, ok := scenarios.Lookup(scenario)
	if !ok {
		fmt.Fprintf(stderr, "swap: no scenario %q (kubesim list shows them)\n", scenario)
		return 2
	}
	i := 0
	for i < len(swappable) && swappable[i].name != labName {
		i++
	}
	if i == len(swappable) {
		fmt.Fprintf(stderr, "swap: lab %q has no component to swap into a scenario; these do: %s\n", labName, strings.Join(names, ", "))
		return 2
	}
	l := swappable[i]
	if l.started != nil {
		if err := l.started(); err != nil {
			fmt.Fprintf(stderr, "swap: lab %s is not started: %v\n(the reference solution plays with: go run -tags solution ./examples/labs/swap %s %s)\n",
				labName, err, labName, scenario)
			return 1
		}
	}
	o := sim.PlayOptions{Seed: *seed, Out: io.Discard}
	if *story {
		o.Out = stdout
		o.Narrate = narrate.Options{Short: !*verbose}
		if f, ok := stdout.(*os.File); ok {
			o.Narrate.Width = narrate.TerminalWidth(f)
		}
	}
	d, yourErr, err := lab.RunWith(ctx, sc, o, l.swap())
	if err != nil {
		fmt.Fprintf(stderr, "swap: %v\n", err)
		return 1
	}
	if *story {
		fmt.Fprintln(stdout)
	}
	fmt.Fprint(stdout, d)
	if yourErr != nil {
		if !*story {
			fmt.Fprintf(stdout, "with your component, scenario %s failed: %v\n", sc.Name, yourErr)
		}
		return 1
	}
	return 0
}

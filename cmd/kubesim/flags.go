// flags.go: how every kubesim command reads its command line, and the limits its numbers must keep.
//
//	parseArgs(fs, args)        flags anywhere among the arguments (`run NAME --trace json` and
//	                           `run --trace json NAME` alike); "--" ends the flags
//	oneName(cmd, names)        the single NAME a command takes, or an error naming the extras
//	checkNodes(flag, n)        1..maxNodes, and why
//	checkSpeed(speed)          minSpeed..maxSpeed, a finite number
//	helpRequested(err)         whether parsing stopped at -h or --help
//	parseCommand(fs, args)     parseArgs, and whether the command goes on or ends (with its exit code)
//	parseName(fs, args)        parseCommand and oneName, for the commands that take one scenario
//	subcommand(args, ...)      the subcommand a command starts with (net trace, snapshot save)
//
// Go's flag package stops at the first argument that is not a flag, so `kubesim run NAME --trace json`
// would leave --trace json unread. parseArgs keeps parsing after each such argument, the way kubectl
// and most command-line tools read their flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// parseArgs parses fs's flags wherever they are in args and returns the other arguments in order.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := args[:len(args)-len(rest)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseCommand is parseArgs as a command's function uses it: ok false means the command ends here,
// with code 0 after -h or --help (fs.Usage has been printed) and 2 after a bad flag (the error has
// been printed).
func parseCommand(fs *flag.FlagSet, args []string) (positional []string, code int, ok bool) {
	positional, err := parseArgs(fs, args)
	switch {
	case helpRequested(err):
		return nil, 0, false
	case err != nil:
		return nil, 2, false
	}
	return positional, 0, true
}

// parseName is parseCommand for a command that takes at most one scenario NAME ("" when there is
// none); more than one is told on fs's output and ends the command with code 2.
func parseName(fs *flag.FlagSet, args []string) (name string, code int, ok bool) {
	names, code, ok := parseCommand(fs, args)
	if !ok {
		return "", code, false
	}
	name, err := oneName(fs.Name(), names)
	if err != nil {
		fmt.Fprintln(fs.Output(), err)
		return "", 2, false
	}
	return name, 0, true
}

// subcommand is args[0] when it is one of subs: the subcommand that net and snapshot start with, before
// their flags. Otherwise the command ends with its usage printed, and code 0 if args[0] asks for help
// (kubesim net --help, kubesim help net), 2 if there is no subcommand or an unknown one.
func subcommand(args []string, usage string, stderr io.Writer, subs ...string) (sub string, code int, ok bool) {
	if len(args) > 0 && slices.Contains(subs, args[0]) {
		return args[0], 0, true
	}
	fmt.Fprint(stderr, usage)
	if len(args) > 0 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		return "", 0, false
	}
	return "", 2, false
}

// helpRequested reports whether fs.Parse stopped because the user asked for help (fs.Usage has then
// been printed).
func helpRequested(err error) bool { return errors.Is(err, flag.ErrHelp) }

// oneName returns the only positional argument of a command that takes at most one ("" when there
// is none), or an error that lists the extra ones.
func oneName(cmd string, names []string) (string, error) {
	switch len(names) {
	case 0:
		return "", nil
	case 1:
		return names[0], nil
	}
	return "", fmt.Errorf("kubesim %s takes one scenario, got %d: %s (flags go before or after it, e.g. kubesim %s %s --trace json)",
		cmd, len(names), strings.Join(names, " "), cmd, names[0])
}

// maxNodes is the most nodes a cluster can have: Kubernetes' own tested limit (5,000 nodes per
// cluster). Each node gets a /24 of the pod network, 10.244.0.0/16 up to 256 nodes and
// sim.WideClusterCIDR beyond, as large clusters configure it.
const maxNodes = 5000

func checkNodes(flagName string, n int) error {
	if n < 1 || n > maxNodes {
		return fmt.Errorf("%s must be 1..%d, not %d: Kubernetes is tested up to %d nodes per cluster",
			flagName, maxNodes, n, maxNodes)
	}
	return nil
}

// The speeds real time can run at. Below minSpeed a scenario would take hours of wall time; above
// maxSpeed a tick of the sped-up clock is shorter than the scheduling of a goroutine, and the
// components no longer keep up with the time they are shown.
const (
	minSpeed = 0.1
	maxSpeed = 10000.0
)

func checkSpeed(speed float64) error {
	if math.IsNaN(speed) || speed < minSpeed || speed > maxSpeed {
		return fmt.Errorf("--speed must be %g..%g (how many times faster than the wall clock; 60 plays a minute a second), not %g; leave it out for step mode",
			minSpeed, maxSpeed, speed)
	}
	return nil
}

// run_with.go: `kubesim run NAME --with ...`, a scenario played with another component in the
// cluster, its story followed by the story diff: where it first parts from the reference story
// told by the built-in components (lab.RunWith, lab/storydiff.go).
//
//	kubesim run taints --with -TaintToleration           a default scheduler plugin turned off
//	kubesim run service --with -endpoints-controller     a controller turned off
//	kubesim run crash-loop --with lab:crashloop-backoff  your lab's code, compiled from your tree
//
// A binary runs only the code compiled into it. What this binary holds, it can turn off in process.
// A learner's component is Go code in their tree, so lab:LAB hands the run to the program
// examples/labs/swap, built from that tree now, as `kubesim lab check` hands grading to go test
// (Go's plugin package would load code into a binary built earlier only on some systems, and only
// with the very same toolchain and dependencies).
package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"kubesim/lab"
	"kubesim/sim"
)

// withList is --with, given once per component.
type withList []string

func (w *withList) String() string     { return strings.Join(*w, ", ") }
func (w *withList) Set(s string) error { *w = append(*w, s); return nil }

// labPrefix starts --with lab:LAB.
const labPrefix = "lab:"

// swapDir is the program under examples/labs that plays a lab's component in a scenario.
const swapDir = "swap"

// withSwaps checks --with against the scenario and the other flags and returns the swaps to play
// in process; a lab's code is played here (done) by the swap program.
func withSwaps(ctx context.Context, sc sim.Scenario, name string, flags *runFlags, set map[string]bool,
	stdout, stderr io.Writer) (swaps []lab.Swap, code int, done bool) {
	if len(*flags.with) == 0 {
		return nil, 0, false
	}
	fail := func(format string, args ...any) ([]lab.Swap, int, bool) {
		fmt.Fprintf(stderr, "kubesim run: --with: "+format+"\n", args...)
		return nil, 2, true
	}
	for _, f := range []string{"speed", "step", "steps", "break", "until"} {
		if set[f] {
			return fail("compares whole stories played in step mode: leave out --%s", f)
		}
	}
	if *flags.traceFormat != "text" {
		return fail("the story diff follows a text story: leave out --trace %s", *flags.traceFormat)
	}
	for _, w := range *flags.with {
		labName, isLab := strings.CutPrefix(w, labPrefix)
		switch {
		case isLab && len(*flags.with) > 1:
			return fail("lab:%s plays one component of yours: give it alone", labName)
		case isLab:
			for f := range set {
				if f != "with" && f != "seed" && f != "verbose" {
					return fail("lab:%s takes only --seed and --verbose besides the scenario's name, not --%s", labName, f)
				}
			}
			if name == "" {
				return fail("lab:%s plays a built-in scenario by name, not -f FILE", labName)
			}
			return nil, runLab(ctx, labName, name, *flags.seed, *flags.verbose, stdout, stderr), true
		case strings.HasPrefix(w, "-"):
			s, err := lab.Without(strings.TrimPrefix(w, "-"))
			if err != nil {
				return fail("%v", err)
			}
			swaps = append(swaps, s)
		default:
			return fail("%q: give -NAME (a default scheduler plugin or controller turned off) or lab:LAB (your code of examples/labs/LAB)", w)
		}
	}
	return swaps, 0, false
}

// playWith plays the scenario with the swaps, its story told as opts says, then the diff.
func playWith(ctx context.Context, sc sim.Scenario, opts sim.PlayOptions, swaps []lab.Swap, w, stderr io.Writer) int {
	d, yourErr, err := lab.RunWith(ctx, sc, opts, swaps...)
	switch {
	case ctx.Err() != nil:
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "kubesim run: %v\n", err)
		return 1
	}
	fmt.Fprintf(w, "\n%s", d)
	if yourErr != nil {
		if !sim.ToldInStory(yourErr) {
			fmt.Fprintf(stderr, "kubesim: scenario %s failed: %v\n", sc.Name, yourErr)
		}
		return 1
	}
	return 0
}

// runLab builds examples/labs/swap from the source tree (the learner's code as it is now) and runs
// it: LAB's component in scenario, its story, the diff.
func runLab(ctx context.Context, labName, scenario string, seed int64, verbose bool, stdout, stderr io.Writer) int {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintf(stderr, "kubesim run: --with lab:%s: %v\n", labName, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "kubesim-swap-")
	if err != nil {
		fmt.Fprintf(stderr, "kubesim run: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "swap")
	built := swapBinary(root, bin)
	build := exec.CommandContext(ctx, "go", "build", "-o", built, "./examples/labs/"+swapDir)
	build.Dir, build.Stdout, build.Stderr = root, stderr, stderr // build errors: the learner's code does not compile
	if err := build.Run(); err != nil {
		fmt.Fprintf(stderr, "kubesim run: --with lab:%s: the labs do not build (go vet ./examples/labs/...)\n", labName)
		return 1
	}
	if built != bin && os.Link(built, bin) != nil {
		bin = built
	}
	args := []string{"--seed", strconv.FormatInt(seed, 10), "--verbose=" + strconv.FormatBool(verbose), labName, scenario}
	fmt.Fprintf(stderr, "kubesim run: your code, compiled now: go run ./examples/labs/swap %s\n", strings.Join(args, " "))
	run := exec.CommandContext(ctx, bin, args...)
	run.Dir, run.Stdout, run.Stderr = root, stdout, stderr
	err = run.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	fmt.Fprintf(stderr, "kubesim run: %v\n", err)
	return 1
}

// swapBinary is where go build writes the swap program of the tree at root: a file of the user's
// cache directory kept from one run to the next, so that go build, finding it built from the same
// sources, leaves it as it is (its build ID matches) instead of linking the whole cluster again, a few
// seconds of CPU each run. Each tree has its own. The run executes a hard link to it in its private
// directory: go build replaces the file (a rename or a new file, never a rewrite in place), so a
// later build for a changed tree leaves a running program alone. Without a user cache directory it
// builds into the run's private directory (fallback), afresh each run.
func swapBinary(root, fallback string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		return fallback
	}
	dir := filepath.Join(cache, "kubesim", "swap-"+fmt.Sprintf("%x", sha256.Sum256([]byte(root)))[:16])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fallback
	}
	return filepath.Join(dir, "swap")
}

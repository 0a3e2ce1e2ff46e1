// lab.go: kubesim lab, the teaching exercises under examples/labs. `kubesim lab list` lists them in
// the order to do them; `kubesim lab check NAME` runs a lab's grader (go test ./examples/labs/NAME,
// from the kubesim source tree) and sums it up for a learner: which checks pass, which are not
// started (the code still says TODO(lab)), and, for each failure, what the grader said.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// labInfo is one lab: its directory under examples/labs and what the learner builds.
type labInfo struct{ name, goal string }

// labs are the labs in rising difficulty (TestLabsAreTheDirectories keeps this list and the
// directories together).
var labs = []labInfo{
	{"filter-plugin", "a scheduler Filter plugin: pods asking for disktype=ssd run only on SSD nodes"},
	{"score-plugin", "a scheduler Score plugin: prefer the node with the fewest pods of the same app"},
	{"admission-latest", "a validating admission plugin: refuse pods whose image floats (latest or no tag)"},
	{"crashloop-backoff", "the kubelet's restart delay for a crashing container: 10s, doubling, up to 5m"},
	{"informer-relist", "an informer's reflector: follow a watch, resume it, and relist after 410 Gone"},
	{"leader-election", "leader election on a Lease: a cut-off leader stops before another takes over"},
	{"replicaset-expectations", "the ReplicaSet Reconcile: match replicas, never twice under a lagging cache"},
	{"endpoints-controller", "a whole controller, from informers to Reconcile: the endpoints controller"},
}

const labUsage = `usage: kubesim lab list | kubesim lab check [--reference] NAME

Teaching exercises graded by go test (examples/labs; each has a README.md).
  list         the labs, in the order to do them
  check NAME   run a lab's grader against your code and sum up what passes and what to do next;
               run it inside the kubesim source tree (it runs go test ./examples/labs/NAME)`

func labCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("lab", labUsage, stderr)
	reference := fs.Bool("reference", false, "grade the reference solution instead of your code (-tags solution)")
	rest, code, ok := parseCommand(fs, args)
	switch {
	case !ok:
		return code
	case len(rest) == 1 && rest[0] == "list":
		for i, l := range labs {
			fmt.Fprintf(stdout, "%d. %s\n   %s\n", i+1, l.name, l.goal)
		}
		fmt.Fprintln(stdout, "\nStart with: kubesim lab check filter-plugin (and read examples/labs/filter-plugin/README.md)")
		return 0
	case len(rest) == 2 && rest[0] == "check":
		return labCheck(ctx, rest[1], *reference, stdout, stderr)
	}
	fs.Usage()
	return 2
}

// labCheck runs the grader of one lab and prints the summary.
func labCheck(ctx context.Context, name string, reference bool, stdout, stderr io.Writer) int {
	if !isLab(name) {
		fmt.Fprintf(stderr, "kubesim lab check: no lab %q; kubesim lab list shows them\n", name)
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintf(stderr, "kubesim lab check: %v\n", err)
		return 1
	}
	goArgs := []string{"test", "-json", "-count=1"}
	if reference {
		goArgs = append(goArgs, "-tags", "solution")
	}
	cmd := exec.CommandContext(ctx, "go", append(goArgs, "./examples/labs/"+name)...)
	cmd.Dir = root
	cmd.Stderr = stderr // build errors: the learner's code does not compile
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(stderr, "kubesim lab check: %v\n", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "kubesim lab check: running go test: %v\n", err)
		return 1
	}
	results := readTestEvents(out)
	waitErr := cmd.Wait()
	fmt.Fprintf(stdout, "lab %s: %s\n", name, results.summary())
	for _, r := range results.tests {
		fmt.Fprintf(stdout, "  %-11s %s\n", r.verdict, sentence(r.name))
		if r.verdict == "FAIL" || r.verdict == "not started" && r.first {
			for _, line := range r.said {
				fmt.Fprintf(stdout, "      %s\n", line)
			}
		}
	}
	switch {
	case len(results.tests) == 0 && waitErr != nil:
		fmt.Fprintf(stdout, "  the lab does not build: fix the errors above (go vet ./examples/labs/%s)\n", name)
		return 1
	case results.failed > 0:
		fmt.Fprintf(stdout, "\nFix the first failure first; its story shows what your code did. README: examples/labs/%s/README.md\n", name)
		return 1
	case results.notStarted > 0:
		fmt.Fprintf(stdout, "\nNot started: replace the TODO(lab) in examples/labs/%s (its README.md says where to begin).\n", name)
		return 1
	case waitErr != nil:
		fmt.Fprintf(stderr, "kubesim lab check: go test: %v\n", waitErr)
		return 1
	}
	fmt.Fprintf(stdout, "\nWell done: every check passes. Compare with the reference solution (*_solution.go), then try the next lab.\n")
	return 0
}

func isLab(name string) bool {
	for _, l := range labs {
		if l.name == name {
			return true
		}
	}
	return false
}

// moduleRoot finds the kubesim source tree from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(data), "module kubesim\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run it inside the kubesim source tree (the labs are Go code you edit, graded by go test)")
		}
		dir = parent
	}
}

// testResult is one grading test: how it ended and what it said.
type testResult struct {
	name, verdict string
	said          []string
	first         bool // the first not-started test: its TODO is shown, the others' would repeat it
}

type testResults struct {
	tests                      []*testResult
	passed, failed, notStarted int
}

// readTestEvents reads go test -json's events into one result per top-level test.
func readTestEvents(r io.Reader) *testResults {
	res := &testResults{}
	byName := map[string]*testResult{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		t := byName[ev.Test]
		if t == nil {
			t = &testResult{name: ev.Test}
			byName[ev.Test] = t
			res.tests = append(res.tests, t)
		}
		switch ev.Action {
		case "output":
			if line, ok := testLine(ev.Output); ok {
				t.said = append(t.said, line)
			}
		case "pass":
			t.verdict = "ok"
			res.passed++
		case "fail":
			t.verdict = "FAIL"
			res.failed++
		case "skip":
			t.verdict = "not started"
			t.first = res.notStarted == 0
			res.notStarted++
		}
	}
	return res
}

// fileLine is the "    grade_test.go:58: " that starts what a test logs.
var fileLine = regexp.MustCompile(`^\s+\S+\.go:\d+: `)

// testLine is a line a test said, without its file:line prefix and go test's indentation; go test's
// own bookkeeping (=== RUN, --- FAIL, PASS) is dropped.
func testLine(output string) (string, bool) {
	line := strings.TrimRight(output, "\n")
	if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
		return "", false
	}
	if loc := fileLine.FindStringIndex(line); loc != nil {
		return line[loc[1]:], true
	}
	return strings.TrimPrefix(line, "        "), true // a continuation line, indented by go test
}

func (r *testResults) summary() string {
	s := fmt.Sprintf("%d of %d checks pass", r.passed, len(r.tests))
	if r.notStarted > 0 {
		s += fmt.Sprintf(", %d not started", r.notStarted)
	}
	if r.failed > 0 {
		s += fmt.Sprintf(", %d fail", r.failed)
	}
	return s
}

// sentence turns a test's name into what it checks: TestPodsThatAskForAnSSDRunOnTheSSDNode -> "pods
// that ask for an SSD run on the SSD node", TestAfter410GoneTheReflectorListsAgain -> "after 410 gone
// the reflector lists again".
func sentence(test string) string {
	name := []rune(strings.TrimPrefix(test, "Test"))
	var words [][]rune
	for i, r := range name {
		starts := i == 0 ||
			unicode.IsUpper(r) && !unicode.IsUpper(name[i-1]) || // fooBar, 410Gone
			unicode.IsUpper(r) && i+1 < len(name) && unicode.IsLower(name[i+1]) || // the R of SSDRun
			unicode.IsDigit(r) && !unicode.IsDigit(name[i-1]) // After410
		if starts {
			words = append(words, nil)
		}
		words[len(words)-1] = append(words[len(words)-1], r)
	}
	out := make([]string, len(words))
	for i, w := range words {
		// A word in capitals (SSD) stays so; any other word (A, Pods) is lower-cased.
		if len(w) < 2 || strings.ToUpper(string(w)) != string(w) {
			w = []rune(strings.ToLower(string(w)))
		}
		out[i] = string(w)
	}
	return strings.Join(out, " ")
}

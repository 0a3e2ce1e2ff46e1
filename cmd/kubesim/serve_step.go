// serve_step.go: `kubesim serve --step`, the served cluster in step mode. Nothing in the cluster
// advances until the learner says so, and kubectl sees the exact state between two steps: the Pod
// created but not yet bound, the ReplicaSet at 0/3. The learner moves the cluster on from the serve
// terminal (Enter: one step; next N; until COND) or from another one:
//
//	kubesim step [N]               POST /kubesim/step?n=N
//	kubesim step --until COND      POST /kubesim/step?until=COND
//
// A step is one unit of work of one component (a reconcile, a scheduling cycle, a kubelet sync), the
// virtual clock jumping to the next timer when nobody has work. The story of each step prints in the
// serve terminal, kubectl's own requests included ("kubectl: POST deployments.apps default/nginx ->
// 201"). kubectl's requests are served while the cluster
// is paused and while it steps: the apiserver answers them itself, without the driver.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"kubesim/apiserver/httpfront"
	"kubesim/narrate"
	"kubesim/script"
	"kubesim/sim"
	"kubesim/trace"
)

// StepPath is the control endpoint `kubesim step` calls.
const StepPath = "/kubesim/step"

// stepper runs a step-mode cluster on request, one request at a time, and tells its story.
type stepper struct {
	c *sim.Cluster

	mu sync.Mutex // one run at a time

	storyMu sync.Mutex // guards story: components, kubectl's requests and runs all record
	story   narrate.Narrator
	telling atomic.Bool // the boot is over: from here on the story is told
}

// newStepper tells the story of the cluster's trace events to w, from start on (the boot's are not
// told); observe is what the cluster's Config.Observe must call.
func newStepper(w io.Writer) (*stepper, func(trace.Event), error) {
	n, err := narrate.New(w, narrate.Options{})
	if err != nil {
		return nil, nil, err
	}
	s := &stepper{story: n}
	return s, func(e trace.Event) {
		if !s.telling.Load() {
			return
		}
		s.storyMu.Lock()
		defer s.storyMu.Unlock()
		s.story.Event(e)
	}, nil
}

// httpMethods are the methods of the API's verbs, as a learner reads them in the story.
var httpMethods = map[string]string{"get": "GET", "list": "GET", "watch": "GET", "create": "POST", "update": "PUT",
	"patch": "PATCH", "delete": "DELETE", "deletecollection": "DELETE"}

// request tells one of kubectl's resource requests in the story once it is answered, an audit sink:
// "kubectl: POST deployments.apps default/nginx -> 201". Discovery and watches (which end only
// when kubectl stops) are left out.
func (s *stepper) request(ev httpfront.AuditEvent) {
	ref := ev.ObjectRef
	if ref == nil || ev.Verb == "watch" {
		return
	}
	what := ref.Resource
	if ref.APIGroup != "" {
		what += "." + ref.APIGroup
	}
	if ref.Subresource != "" {
		what += "/" + ref.Subresource
	}
	if name := strings.Trim(ref.Namespace+"/"+ref.Name, "/"); name != "" {
		what += " " + name
	}
	agent, _, _ := strings.Cut(ev.UserAgent, "/")
	if agent == "" {
		agent = "http"
	}
	s.c.Trace.Record(trace.Event{Component: agent, Actor: ev.User.Username, Action: "request", Code: ev.ResponseStatus.Code}.
		Msgf("%s %s -> %d", httpMethods[ev.Verb], what, ev.ResponseStatus.Code))
}

// start begins the story, once the cluster has booted.
func (s *stepper) start(c *sim.Cluster) {
	s.c = c
	s.telling.Store(true)
}

// never is the condition of `next N`: run the N steps, whatever happens.
var never = sim.Check("never", func() (bool, error) { return false, nil })

// run takes n steps (until == nil) or runs until the condition holds (for at most an hour of cluster
// time), and says where the cluster stands.
func (s *stepper) run(ctx context.Context, n int, until sim.Condition) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.c.Driver.Steps()
	cond, maxSteps := until, 0
	if until == nil {
		cond, maxSteps = never, n
	}
	met, err := s.c.Wait(ctx, cond, 0, maxSteps)
	s.storyMu.Lock()
	narrate.Flush(s.story)
	s.storyMu.Unlock()
	if err != nil {
		return "", err
	}
	ran := s.c.Driver.Steps() - first
	at := s.c.Now().Sub(sim.Epoch)
	switch {
	case until == nil:
		return fmt.Sprintf("ran %d step(s); cluster time +%s", ran, at), nil
	case met:
		return fmt.Sprintf("%s holds, after %d step(s); cluster time +%s", until, ran, at), nil
	}
	return fmt.Sprintf("%s still does not hold, after %d step(s) and %s of cluster time; cluster time +%s", until, ran, sim.MaxWait, at), nil
}

// ServeHTTP is POST /kubesim/step?n=N or ?until=COND (the front lets only admins reach it).
func (s *stepper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != StepPath {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST "+StepPath+"?n=N or ?until=COND", http.StatusMethodNotAllowed)
		return
	}
	n, cond, err := parseStep(r.URL.Query().Get("n"), r.URL.Query().Get("until"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	said, err := s.run(r.Context(), n, cond)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, said)
}

// parseStep reads a number of steps (default 1) or a condition, not both.
func parseStep(steps, until string) (int, sim.Condition, error) {
	if until != "" {
		if steps != "" {
			return 0, nil, fmt.Errorf("give a number of steps or a condition, not both")
		}
		cond, err := script.ParseCondition(until)
		return 0, cond, err
	}
	if steps == "" {
		return 1, nil, nil
	}
	n, err := strconv.Atoi(steps)
	if err != nil || n < 1 {
		return 0, nil, fmt.Errorf("the number of steps must be 1 or more, not %q", steps)
	}
	return n, nil, nil
}

// stepHelp is what the serve terminal accepts.
const stepHelp = `Enter or next: run one step; next N: run N steps; until COND: run until a condition holds
(e.g. until pods bound); from another terminal: kubesim step [N], kubesim step --until COND.
On a node: crictl ps [-a] | pods | images | logs ID --node NODE; journalctl -u kubelet [-n N] --node NODE;
ls -l /var/lib/kubelet/pki, cat FILE, openssl x509 -in FILE -noout -dates, date, timedatectl, with --node NODE`

// parseStepCommand reads one command of the serve terminal or the web view: Enter or next [N], or
// until COND. known is false for any other command.
func parseStepCommand(line string) (n int, cond sim.Condition, known bool, err error) {
	verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch verb {
	case "", "n", "next":
		n, cond, err = parseStep(strings.TrimSpace(arg), "")
	case "until":
		n, cond, err = parseStep("", strings.TrimSpace(arg))
		if err == nil && cond == nil {
			err = fmt.Errorf("until takes a condition, e.g. until pods bound")
		}
	default:
		return 0, nil, false, nil
	}
	return n, cond, true, err
}

// console reads the serve terminal's commands until in ends or ctx does.
func (s *stepper) console(ctx context.Context, in io.Reader, out io.Writer) {
	lines := bufio.NewScanner(in)
	for lines.Scan() && ctx.Err() == nil {
		if nodeCommand(ctx, s.c, out, lines.Text()) { // crictl, journalctl, ls, cat, openssl, date, timedatectl (serve_node.go)
			continue
		}
		n, cond, known, err := parseStepCommand(lines.Text())
		if !known {
			fmt.Fprintln(out, stepHelp)
			continue
		}
		if err == nil {
			var said string
			if said, err = s.run(ctx, n, cond); err == nil {
				fmt.Fprintln(out, said)
			}
		}
		if err != nil && ctx.Err() == nil {
			fmt.Fprintln(out, err)
		}
	}
}

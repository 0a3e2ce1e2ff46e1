// trace.go: reachability in the two languages, as `kubesim net trace` answers it (package nettrace).
//
//   - trace: {from: client, to: web:80}         a step: trace and tell each hop in the story
//     expect: trace client web:80 reached          a condition: the trace gets through
//     wait: trace client web:80 unreachable at rules   ... or stops at that hop (at HOP is optional)
//
// The step shows the walk (DNS, the Service, the node's kube-proxy rules, the endpoint, the pod's
// port) as a learner would run it by hand; the condition checks its verdict, so a file can expect a
// broken path, fix the object, and wait until the path works.
package script

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"kubesim/nettrace"
	"kubesim/sim"
)

// parseTrace reads `trace: {from: POD, to: NAME:PORT}`; POD is NAME or NAMESPACE/NAME.
func parseTrace(p *fileParser, st *stepSpec) stepFunc {
	fields := map[string]string{}
	known := []string{"from", "to"}
	for _, e := range p.pairs(st.value, "trace") {
		if !slices.Contains(known, e.key) {
			p.unknown(e, " in trace", known)
			return nil // the misspelt key is the problem to report, not the key it should have been
		}
		fields[e.key], _ = p.text(e.value, e.key)
	}
	from, to := fields["from"], fields["to"]
	if deref(st.value).Kind != yaml.MappingNode {
		return nil // pairs said what a trace takes
	}
	if from == "" || to == "" {
		p.problem(st.line, `trace needs from and to: "trace: {from: client, to: web:80}" (from a pod, to NAME:PORT)`)
		return nil
	}
	if _, port, ok := strings.Cut(to, ":"); !ok || port == "" {
		p.problem(st.line, "trace: to is NAME:PORT (a Service name, a DNS name or an IP, and a port), not %q", to)
		return nil
	}
	return func(ctx context.Context, r *fileRun) error {
		// The controllers and each node's kube-proxy catch up first, as they would within a second.
		r.acted = false
		if err := r.s.CatchUp(ctx); err != nil {
			return err
		}
		r.note("trace", "$ kubesim net trace --from %s --to %s", from, to)
		res, err := r.s.NetTrace(ctx, from, to)
		if err != nil {
			return err
		}
		res.Tell(r.s.Trace)
		if res.Reached {
			r.note("trace", "reached: %s", strings.Join(res.Path, " -> "))
		} else {
			r.note("trace", "unreachable: stopped at the %s hop", res.StoppedAt())
		}
		return nil
	}
}

// traceCondition holds when a trace from a pod to NAME:PORT gets through, or stops (at a hop).
type traceCondition struct {
	from, to string
	reached  bool
	at       string // with !reached: the hop it must stop at, "" for any
}

// parseTraceCondition reads the words after "trace": FROM NAME:PORT reached|unreachable [at HOP].
func parseTraceCondition(s string, words []string, namespace string) (sim.Condition, error) {
	fail := func(format string, args ...any) (sim.Condition, error) {
		return nil, &ConditionError{Condition: s, Problem: fmt.Sprintf(format, args...)}
	}
	if len(words) < 3 {
		return fail("write it as trace FROM NAME:PORT reached, or trace FROM NAME:PORT unreachable [at HOP]")
	}
	t := &traceCondition{from: words[0], to: words[1]}
	if !strings.Contains(t.from, "/") && namespace != "default" {
		t.from = namespace + "/" + t.from
	}
	if _, port, ok := strings.Cut(t.to, ":"); !ok || port == "" {
		return fail("%q is not NAME:PORT", t.to)
	}
	switch verdict, rest := words[2], words[3:]; {
	case verdict == "reached" && len(rest) == 0:
		t.reached = true
	case verdict == "unreachable" && len(rest) == 0:
	case verdict == "unreachable" && len(rest) == 2 && rest[0] == "at" && slices.Contains(nettrace.HopKinds, rest[1]):
		t.at = rest[1]
	case verdict == "unreachable" && len(rest) == 2 && rest[0] == "at":
		return fail("%q is not a hop%s", rest[1], didYouMean(rest[1], nettrace.HopKinds, "the hops are "+strings.Join(nettrace.HopKinds, ", ")))
	default:
		return fail("after FROM NAME:PORT say reached, unreachable, or unreachable at HOP, not %q", strings.Join(words[2:], " "))
	}
	return t, nil
}

func (t *traceCondition) String() string {
	s := "trace " + t.from + " " + t.to
	switch {
	case t.reached:
		return s + " reached"
	case t.at != "":
		return s + " unreachable at " + t.at
	}
	return s + " unreachable"
}

func (t *traceCondition) Met(ctx context.Context, c *sim.Cluster) (bool, error) {
	r, err := c.NetTrace(ctx, t.from, t.to)
	if err != nil {
		return false, err
	}
	if t.reached {
		return r.Reached, nil
	}
	return !r.Reached && (t.at == "" || r.StoppedAt() == t.at), nil
}

// Seen is the trace's verdict: "reached 10.244.0.2 -> ..." or "unreachable at the rules hop: why".
func (t *traceCondition) Seen(ctx context.Context, c *sim.Cluster) (string, error) {
	r, err := c.NetTrace(ctx, t.from, t.to)
	if err != nil {
		return "", err
	}
	return r.Verdict(), nil
}

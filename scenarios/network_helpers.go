// network_helpers.go: what the networking scenarios (pod-network, service,
// service-no-endpoints, dns, wrong-target-port, readiness-removes-endpoint, cross-namespace-dns)
// share: telling a reachability trace in the story, and reading a Service's EndpointSlices and a
// node's rules as kubectl and iptables-save show them.
package scenarios

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/nettrace"
	"kubesim/sim"
	"kubesim/trace"
)

// netZH is the Chinese of the lines these helpers narrate (a trace's hops and verdict, a node's rules)
// and of the signs and step headings the networking scenarios share.
var netZH = catalog{
	"iptables-save | grep %s on %s:\n%s":                                    "iptables-save | grep %s，节点 %s：\n%s",
	"%s kubesim net trace --from %s --to %s: reached %s%s":                  "%s kubesim net trace --from %s --to %s：到达了，路径 %s%s",
	"%s kubesim net trace --from %s --to %s: unreachable at the %s hop: %s": "%s kubesim net trace --from %s --to %s：在 %s 这一跳不通：%s",
	"%s kubesim net trace --from %s --to %s: %v":                            "%s kubesim net trace --from %s --to %s 出错：%v",
	"%s the cluster settles before the trace: %v":                           "%s 追踪之前集群先稳定下来：%v",
	"%s the cluster settles before iptables-save: %v":                       "%s iptables-save 之前集群先稳定下来：%v",
	"%s kube-proxy runs on %s":                                              "%s kube-proxy 在 %s 上运行",
	"%d. kubesim net trace --from client --to web:80":                       "%d. 追踪连接：kubesim net trace --from client --to web:80",
}

// netCatalog is a networking scenario's Chinese: the tracer's, netZH, then the scenario's own lines.
func netCatalog(own catalog) catalog {
	return trace.Merge(nettrace.ZH, netZH, own)
}

// settleNetwork lets the controllers and every node's kube-proxy catch up with the last change, as
// they would within a second or so on a real cluster.
func settleNetwork(ctx context.Context, s *sim.Session) error {
	return s.Driver.RunDue(ctx, 100000)
}

// netTrace runs `kubesim net trace --from from --to to` once the network has caught up, and tells
// each hop in the story.
func netTrace(ctx context.Context, s *sim.Session, from, to string) nettrace.Result {
	if err := settleNetwork(ctx, s); err != nil {
		s.Expect(false, "the cluster settles before the trace: %v", err)
	}
	r, err := s.NetTrace(ctx, from, to)
	if err != nil {
		s.Expect(false, "kubesim net trace --from %s --to %s: %v", from, to, err)
		return r
	}
	r.Tell(s.Trace)
	return r
}

// expectReached checks that a trace got through, naming its path.
func expectReached(s *sim.Session, r nettrace.Result) {
	s.Expect(r.Reached, "kubesim net trace --from %s --to %s: reached %s%s", r.From, r.To, strings.Join(r.Path, " -> "), failure(r))
}

// expectUnreachable checks that a trace stopped at hop kind, for a reason containing why.
func expectUnreachable(s *sim.Session, r nettrace.Result, kind, why string) {
	s.Expect(r.StoppedAt() == kind && strings.Contains(r.Reason, why),
		"kubesim net trace --from %s --to %s: unreachable at the %s hop: %s", r.From, r.To, kind, orWanted(r.Reason, why))
}

func failure(r nettrace.Result) string {
	if r.Reached {
		return ""
	}
	return " (unreachable: " + r.Reason + ")"
}

func orWanted(got, want string) string {
	if got == "" {
		return want
	}
	return got
}

// slicesOf lists a Service's EndpointSlices (kubectl get endpointslices -l
// kubernetes.io/service-name=NAME).
func slicesOf(ctx context.Context, s *sim.Session, namespace, service string) ([]*api.EndpointSlice, error) {
	return sim.List[api.EndpointSlice](ctx, s.Cluster, namespace, api.LabelServiceName+"="+service, "")
}

// sliceEndpoints counts a Service's endpoints by their ready condition.
func sliceEndpoints(slices []*api.EndpointSlice) (ready, notReady int) {
	for _, sl := range slices {
		for _, ep := range sl.Endpoints {
			if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
				ready++
			} else {
				notReady++
			}
		}
	}
	return ready, notReady
}

// waitForEndpoints runs the cluster until the Service's slices hold ready ready endpoints and
// notReady not-ready ones.
func waitForEndpoints(ctx context.Context, s *sim.Session, within time.Duration, namespace, service string, ready, notReady int) bool {
	return s.Until(ctx, within, sim.Check(fmt.Sprintf("EndpointSlice of %s/%s: %d ready, %d not ready", namespace, service, ready, notReady), func() (bool, error) {
		slices, err := slicesOf(ctx, s, namespace, service)
		r, n := sliceEndpoints(slices)
		return err == nil && len(slices) > 0 && r == ready && n == notReady, err
	}))
}

// showRules tells the kube-proxy rules of a node that concern a Service, as
// `iptables-save | grep SERVICE` would show them, and returns them.
func showRules(ctx context.Context, s *sim.Session, node, service string) []string {
	if err := settleNetwork(ctx, s); err != nil {
		s.Expect(false, "the cluster settles before iptables-save: %v", err)
	}
	rules, ok := s.ProxyRules(node)
	if !ok {
		s.Expect(false, "kube-proxy runs on %s", node)
		return nil
	}
	var lines []string
	for _, l := range strings.Split(rules.IptablesSave(), "\n") {
		if strings.Contains(l, service) {
			lines = append(lines, l)
		}
	}
	s.Trace.Record(trace.Event{Component: "kube-proxy/" + node, Action: "iptables-save"}.
		Msgf("iptables-save | grep %s on %s:\n%s", service, node, strings.Join(lines, "\n")))
	return lines
}

// hasLine reports whether some line contains every one of parts.
func hasLine(lines []string, parts ...string) bool {
	for _, l := range lines {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// hasHop reports whether a trace went through a hop of kind.
func hasHop(hops []nettrace.Hop, kind string) bool {
	for _, h := range hops {
		if h.Kind == kind {
			return true
		}
	}
	return false
}

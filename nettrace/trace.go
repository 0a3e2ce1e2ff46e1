// trace.go: one reachability trace.
//
//	Trace(in, from, to) Result   walk from pod "from" ("ns/name" or "name") to "NAME:PORT"
//	(Result).String()            the hops, numbered, then the verdict
package nettrace

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/dns"
	"kubesim/kubeproxy"
)

// Input is the cluster as the trace sees it.
type Input struct {
	Pods     []*api.Pod
	Services []*api.Service
	Nodes    []*api.Node
	DNS      *dns.Server
	// Rules returns the kube-proxy rules of a node.
	Rules func(node string) (*kubeproxy.Rules, bool)
}

// Hop is one step of the walk.
type Hop struct {
	Kind   string   // one of HopKinds
	Lines  []string // what happened, first line first
	Failed bool
}

// HopKinds are the hops a trace walks, in order ("target" only fails: the target is not NAME:PORT).
var HopKinds = []string{"target", "source", "dns", "service", "rules", "endpoint", "pod"}

// Result is a whole trace.
type Result struct {
	From, To string
	Hops     []Hop
	Reached  bool
	Path     []string // the addresses the connection went through, when reached
	Reason   string   // why it failed, when not reached
}

// String prints the trace.
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trace %s -> %s\n", r.From, r.To)
	for i, h := range r.Hops {
		mark := "✓"
		if h.Failed {
			mark = "✗"
		}
		for j, l := range h.Lines {
			if j == 0 {
				fmt.Fprintf(&b, "  %d. %s %-8s %s\n", i+1, mark, h.Kind, l)
			} else {
				fmt.Fprintf(&b, "  %s %-8s %s\n", strings.Repeat(" ", len(strconv.Itoa(i+1))+3), "", l)
			}
		}
	}
	switch {
	case r.Reached:
		fmt.Fprintf(&b, "reached: %s\n", strings.Join(r.Path, " -> "))
	case len(r.Hops) > 0:
		fmt.Fprintf(&b, "unreachable: stopped at hop %d (%s)\n", len(r.Hops), r.Hops[len(r.Hops)-1].Kind)
	}
	return b.String()
}

type walk struct {
	in  Input
	res Result
}

func (w *walk) ok(kind string, lines ...string) {
	w.res.Hops = append(w.res.Hops, Hop{Kind: kind, Lines: lines})
}

func (w *walk) fail(kind, reason string, lines ...string) Result {
	w.res.Hops = append(w.res.Hops, Hop{Kind: kind, Lines: append(lines, reason), Failed: true})
	w.res.Reason = reason
	return w.res
}

// Trace walks from the pod from to the target to, "NAME:PORT" where NAME is a DNS name or an IP.
func Trace(in Input, from, to string) Result {
	w := &walk{in: in, res: Result{From: from, To: to}}
	name, portStr, ok := strings.Cut(to, ":")
	port, err := strconv.Atoi(portStr)
	if !ok || err != nil || port <= 0 || port > 65535 {
		return w.fail("target", fmt.Sprintf("%q is not NAME:PORT", to))
	}
	ns, podName, ok := strings.Cut(from, "/")
	if !ok {
		ns, podName = "default", from
	}
	src := w.pod(ns, podName)
	if src == nil {
		return w.fail("source", fmt.Sprintf("pod %s/%s not found", ns, podName))
	}
	if src.Status.PodIP == "" || src.Status.Phase != api.PodRunning {
		return w.fail("source", fmt.Sprintf("pod %s/%s is %s with no IP yet: it cannot open connections", ns, podName, phaseOf(src)))
	}
	w.ok("source", fmt.Sprintf("pod %s/%s on %s, IP %s", ns, podName, src.Spec.NodeName, src.Status.PodIP))
	w.res.Path = append(w.res.Path, src.Status.PodIP)

	ip := name
	if _, err := netip.ParseAddr(name); err != nil {
		answer, r := w.resolve(src, name)
		if answer == nil {
			return r
		}
		if answer.Headless || answer.Endpoint != "" {
			w.res.Path = append(w.res.Path, name)
			return w.toPod(answer.A[0], int32(port), "")
		}
		ip = answer.A[0]
	}
	return w.toService(src, ip, int32(port))
}

// resolve runs the pod's resolver; a nil answer means the trace ended.
func (w *walk) resolve(src *api.Pod, name string) (*dns.Answer, Result) {
	res := w.in.DNS.Resolve(src, name)
	conf := res.Conf
	lines := []string{fmt.Sprintf("dnsPolicy %s: resolv.conf %s", conf.Policy, strings.ReplaceAll(strings.TrimSpace(conf.String()), "\n", "; "))}
	if conf.Note != "" {
		lines = append(lines, conf.Note)
	}
	for _, q := range res.Queries {
		switch {
		case q.Rcode != dns.NoError:
			lines = append(lines, fmt.Sprintf("%s: %s", q.Name, q.Rcode))
		case q.Endpoint != "":
			lines = append(lines, fmt.Sprintf("%s: A %s (endpoint %s of Service %s/%s: that pod's own address)", q.Name, strings.Join(q.A, ", "), q.Endpoint, q.Service.Namespace, q.Service.Name))
		case q.Headless:
			lines = append(lines, fmt.Sprintf("%s: A %s (headless Service %s/%s: one record per ready pod)", q.Name, strings.Join(q.A, ", "), q.Service.Namespace, q.Service.Name))
		default:
			lines = append(lines, fmt.Sprintf("%s: A %s (Service %s/%s)", q.Name, q.A[0], q.Service.Namespace, q.Service.Name))
		}
	}
	if a := res.Answer(); a != nil {
		w.ok("dns", lines...)
		return a, w.res
	}
	if !conf.ClusterDNS() {
		return nil, w.fail("dns", fmt.Sprintf("%s does not resolve: the pod asks %v, the node's resolver, which knows no cluster names", name, conf.Nameservers), lines...)
	}
	short, _, _ := strings.Cut(name, ".")
	reason := fmt.Sprintf("no Service %q in namespace %s: every name of the search path is NXDOMAIN", short, src.Namespace)
	if strings.Contains(name, ".") {
		reason = fmt.Sprintf("%s names no Service: every name of the search path is NXDOMAIN", name)
	}
	for _, q := range res.Queries {
		if q.Service != nil && q.Service.Spec.ClusterIP == api.ClusterIPNone {
			reason = fmt.Sprintf("headless Service %s/%s has no ready endpoints, so %s has no A record", q.Service.Namespace, q.Service.Name, q.Name)
		}
	}
	var elsewhere []string
	for _, svc := range w.in.DNS.ServicesNamed(short) {
		if svc.Namespace != src.Namespace {
			elsewhere = append(elsewhere, fmt.Sprintf("%s.%s", svc.Name, svc.Namespace))
		}
	}
	if len(elsewhere) > 0 && !strings.Contains(name, ".") {
		reason += fmt.Sprintf("; a short name searches only the pod's own namespace: the Service is reached as %s", strings.Join(elsewhere, " or "))
	}
	return nil, w.fail("dns", reason, lines...)
}

// toService follows a cluster IP through the source node's rules.
func (w *walk) toService(src *api.Pod, ip string, port int32) Result {
	svc := w.serviceWithIP(ip)
	if svc == nil {
		w.res.Path = append(w.res.Path, ip)
		return w.toPod(ip, port, "")
	}
	key := svc.Namespace + "/" + svc.Name
	var sp *api.ServicePort
	var exposed []string
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		exposed = append(exposed, fmt.Sprintf("%d/%s", p.Port, protocolOf(p.Protocol)))
		if p.Port == port && protocolOf(p.Protocol) == api.ProtocolTCP {
			sp = p
		}
	}
	if sp == nil {
		return w.fail("service", fmt.Sprintf("Service %s does not expose port %d (it exposes %s): no rule matches %s:%d, so nothing answers and the connection times out",
			key, port, strings.Join(exposed, ", "), ip, port))
	}
	target := sp.TargetPort.String()
	if sp.TargetPort.IntValue() == 0 && sp.TargetPort.StrVal == "" {
		target = strconv.Itoa(int(sp.Port))
	}
	w.ok("service", fmt.Sprintf("%s:%d is Service %s port %d/TCP%s -> targetPort %s, selector %s",
		ip, port, key, port, portNameSuffix(sp.Name), target, labels.Set(svc.Spec.Selector).String()))
	w.res.Path = append(w.res.Path, fmt.Sprintf("%s:%d", ip, port))

	rules, ok := w.in.Rules(src.Spec.NodeName)
	if !ok {
		return w.fail("rules", fmt.Sprintf("node %s runs no kube-proxy: nothing rewrites the cluster IP", src.Spec.NodeName))
	}
	spr, ok := rules.Lookup(ip, port, api.ProtocolTCP)
	if !ok {
		return w.fail("rules", fmt.Sprintf("kube-proxy on %s has no rule for %s:%d yet (it has not synced the Service)", src.Spec.NodeName, ip, port))
	}
	if len(spr.Endpoints) == 0 {
		return w.fail("rules", fmt.Sprintf("Service %s has no endpoints: %s", key, w.whyNoEndpoints(svc, sp)),
			fmt.Sprintf("%s: filter KUBE-SERVICES -d %s/32 --dport %d -j REJECT (\"%s has no endpoints\"): connection refused", src.Spec.NodeName, ip, port, spr.Name))
	}
	ep := spr.Endpoints[0]
	pick := "the only endpoint"
	if len(spr.Endpoints) > 1 {
		pick = fmt.Sprintf("one of %d endpoints at random (first rule --probability %s); following the first", len(spr.Endpoints), ep.Probability)
	}
	lines := []string{fmt.Sprintf("%s: nat KUBE-SERVICES -d %s/32 --dport %d -j %s", src.Spec.NodeName, ip, port, spr.Chain),
		fmt.Sprintf("%s picks %s: %s", spr.Chain, pick, ep.Chain)}
	if spr.StickySeconds > 0 {
		lines = append(lines, fmt.Sprintf("sessionAffinity ClientIP: %s records this client (-m recent --set), and its next connections within %ds go to the same endpoint", ep.Chain, spr.StickySeconds))
	}
	if spr.Terminating {
		lines = append(lines, "no endpoint is ready: kube-proxy falls back to serving endpoints that are terminating")
	}
	w.ok("rules", lines...)
	return w.toPod(ep.IP, ep.Port, ep.Chain)
}

// toPod delivers to a pod IP and port.
func (w *walk) toPod(ip string, port int32, sepChain string) Result {
	pod := w.podWithIP(ip)
	dest := fmt.Sprintf("%s:%d", ip, port)
	if pod == nil {
		return w.fail("endpoint", fmt.Sprintf("no pod has IP %s: nothing answers at %s", ip, dest))
	}
	where := fmt.Sprintf("pod %s/%s on %s", pod.Namespace, pod.Name, pod.Spec.NodeName)
	if cidr := w.podCIDROf(pod.Spec.NodeName); cidr != "" {
		where += fmt.Sprintf(" (podCIDR %s)", cidr)
	}
	if sepChain != "" {
		w.ok("endpoint", fmt.Sprintf("%s: DNAT --to-destination %s: %s", sepChain, dest, where))
	} else {
		w.ok("endpoint", fmt.Sprintf("%s: %s", dest, where))
	}
	w.res.Path = append(w.res.Path, dest)
	var declared []string
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			declared = append(declared, fmt.Sprintf("%s %d/%s", c.Name, p.ContainerPort, protocolOf(p.Protocol)))
			if p.ContainerPort == port && protocolOf(p.Protocol) == api.ProtocolTCP {
				w.ok("pod", fmt.Sprintf("container %s listens on %d%s", c.Name, port, portNameSuffix(p.Name)))
				w.res.Reached = true
				return w.res
			}
		}
	}
	if len(declared) == 0 {
		w.ok("pod", fmt.Sprintf("pod %s declares no containerPort: assumed to listen on %d", pod.Name, port))
		w.res.Reached = true
		return w.res
	}
	return w.fail("pod", fmt.Sprintf("pod %s/%s does not listen on %d (its container ports: %s): connection refused; is targetPort right?",
		pod.Namespace, pod.Name, port, strings.Join(declared, ", ")))
}

// whyNoEndpoints says why a Service port has no usable endpoint.
func (w *walk) whyNoEndpoints(svc *api.Service, sp *api.ServicePort) string {
	if len(svc.Spec.Selector) == 0 {
		return "it has no selector, and no EndpointSlice was written for it by hand"
	}
	selector := labels.SelectorFromSet(svc.Spec.Selector)
	var matched, running, ready []*api.Pod
	var labelled []string
	for _, p := range w.in.Pods {
		if p.Namespace != svc.Namespace {
			continue
		}
		if !selector.Matches(labels.Set(p.Labels)) {
			if len(p.Labels) > 0 {
				labelled = append(labelled, fmt.Sprintf("%s (%s)", p.Name, labels.Set(p.Labels).String()))
			}
			continue
		}
		matched = append(matched, p)
		if p.Status.PodIP != "" && p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil {
			running = append(running, p)
			if api.IsPodReady(p) {
				ready = append(ready, p)
			}
		}
	}
	sel := labels.Set(svc.Spec.Selector).String()
	switch {
	case len(matched) == 0:
		msg := fmt.Sprintf("the selector %s matches no pod in namespace %s", sel, svc.Namespace)
		if len(labelled) > 0 {
			msg += "; its pods are labelled " + strings.Join(labelled, ", ")
		}
		return msg
	case len(running) == 0:
		return fmt.Sprintf("%d pod(s) match %s but none is running with an IP yet", len(matched), sel)
	case len(ready) == 0:
		names := make([]string, len(running))
		for i, p := range running {
			names[i] = p.Name
		}
		return fmt.Sprintf("%d pod(s) match %s but none is Ready (%s): the EndpointSlice lists them with ready=false, and kube-proxy only sends to ready endpoints",
			len(running), sel, strings.Join(names, ", "))
	}
	if name := sp.TargetPort.StrVal; name != "" {
		var names []string
		for _, c := range ready[0].Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == name {
					return "kube-proxy on this node has not synced its EndpointSlice yet"
				}
				if p.Name != "" {
					names = append(names, fmt.Sprintf("%s=%d", p.Name, p.ContainerPort))
				}
			}
		}
		if len(names) == 0 {
			names = []string{"none"}
		}
		return fmt.Sprintf("targetPort %q names no container port of the selected pods (their named ports: %s), so their endpoints serve no port %d",
			sp.TargetPort.StrVal, strings.Join(names, ", "), sp.Port)
	}
	return "kube-proxy on this node has not synced its EndpointSlice yet"
}

func (w *walk) pod(ns, name string) *api.Pod {
	for _, p := range w.in.Pods {
		if p.Namespace == ns && p.Name == name {
			return p
		}
	}
	return nil
}

func (w *walk) podWithIP(ip string) *api.Pod {
	for _, p := range w.in.Pods {
		if p.Status.PodIP == ip && p.Status.Phase == api.PodRunning {
			return p
		}
	}
	return nil
}

func (w *walk) serviceWithIP(ip string) *api.Service {
	for _, s := range w.in.Services {
		if s.Spec.ClusterIP == ip {
			return s
		}
	}
	return nil
}

func (w *walk) podCIDROf(node string) string {
	for _, n := range w.in.Nodes {
		if n.Name == node {
			return n.Spec.PodCIDR
		}
	}
	return ""
}

func phaseOf(p *api.Pod) string {
	if p.Status.Phase == "" {
		return "Pending"
	}
	return string(p.Status.Phase)
}

func protocolOf(p api.Protocol) api.Protocol {
	if p == "" {
		return api.ProtocolTCP
	}
	return p
}

func portNameSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " (" + name + ")"
}

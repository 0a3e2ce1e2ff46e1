// component_logs.go: what kubeadm's components log, for `kubectl -n kube-system logs
// kube-apiserver-control-plane` (article 1, 2.3: `kubectl -n kube-system logs <apiserver pod> --tail 200
// | grep -E 'Forbidden|timeout|admission'`; 7.2: the controller manager's log) and for CoreDNS's and
// kube-proxy's pods. On a control-plane node (controlplane_node.go) the control plane runs as static
// pods, and the add-ons (addons.go) as a Deployment and a DaemonSet; the container runtime asks
// componentLog for the log of such a container (fakeruntime.Options.ServerLog).
//
// A component's log is its trace lines, the last Config.JournalLines of each, in klog's format (etcd's
// in zap's JSON, {"level":"info","ts":"2026-12-03T04:10:11.123456Z","msg":"..."}):
//
//	I1203 04:10:11.123456       1 replicaset-controller] reconcile default/web-7d4b9c: wants 3, has 0 -> ...
//
// severity (I, W for a 4xx answer, E for a 5xx), month and day, time, the process's thread (1), and
// where klog names the source file and line, the part of the component that wrote it. The message is
// the component's line as the story tells it, not klog's wording; routine (detail) lines are left out,
// as klog's default verbosity leaves out the chatty ones. kube-controller-manager's log holds its
// controllers' lines and its leader election's; kube-scheduler's the scheduler's; a kube-proxy pod's
// its node's kube-proxy's.
package sim

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"kubesim/dns"
	fakeruntime "kubesim/runtime"
	"kubesim/trace"
)

// processes maps a trace component to the control-plane process it runs in (the controller
// manager's controllers, a scheduler's name); filled as the components start.
type processes struct{ m sync.Map }

func (p *processes) add(component, process string) { p.m.Store(component, process) }

// of is the process a trace line's component runs in, if it is a control-plane one.
func (p *processes) of(e trace.Event) (string, bool) {
	if e.Detail && !strings.HasPrefix(e.Component, "kube-proxy/") { // its syncs are all it says
		return "", false
	}
	switch c := e.Component; {
	case c == "kube-apiserver" || c == "etcd" || c == dns.Name:
		return c, true
	case strings.HasPrefix(c, "kube-proxy/"):
		return c, true // each node's its own
	case strings.HasPrefix(c, "kube-controller-manager"):
		return "kube-controller-manager", true
	case strings.HasPrefix(c, "kube-scheduler"):
		return "kube-scheduler", true
	}
	if v, ok := p.m.Load(e.Component); ok {
		return v.(string), true
	}
	return "", false
}

// componentLog is the log of a kubeadm component's server up to until, for node's runtime: nil when
// the run keeps no logs.
func (c *Cluster) componentLog(node, server string, until time.Time) []fakeruntime.LogLine {
	if c.componentLogs == nil {
		return nil
	}
	unit := server
	if server == "kube-proxy" {
		unit = "kube-proxy/" + node
	}
	var out []fakeruntime.LogLine
	for _, l := range c.componentLogs.last(unit, -1) {
		if l.at.After(until) {
			break
		}
		line := klogLine(l)
		if server == "etcd" {
			line = zapLine(l)
		}
		out = append(out, fakeruntime.LogLine{Time: l.at, Stream: "stderr", Log: line})
	}
	return out
}

// zapLine writes one line as etcd logs, in zap's JSON (etcd names the caller's file and line where
// this says nothing).
func zapLine(l journalLine) string {
	level := [...]string{"info", "warn", "error"}[severity(l.code)]
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // zap writes "->" as it is
	enc.Encode(struct {
		Level string `json:"level"`
		TS    string `json:"ts"`
		Msg   string `json:"msg"`
	}{level, l.at.UTC().Format("2006-01-02T15:04:05.000000Z07:00"), l.msg})
	return strings.TrimSuffix(b.String(), "\n")
}

// severity ranks a line by the HTTP status it tells of: 0 information, 1 a warning (4xx), 2 an
// error (5xx).
func severity(code int) int {
	switch {
	case code >= 500:
		return 2
	case code >= 400:
		return 1
	}
	return 0
}

// klogLine writes one line with klog's header.
func klogLine(l journalLine) string {
	sev := [...]string{"I", "W", "E"}[severity(l.code)]
	from := l.from
	if strings.HasPrefix(from, "kube-controller-manager") {
		from = from[strings.LastIndexByte(from, '/')+1:] // kube-controller-manager-2/deployment-controller: the controller
	}
	from, _, _ = strings.Cut(from, "/") // kube-proxy/node-1: kube-proxy
	return fmt.Sprintf("%s%s %7d %s] %s", sev, l.at.UTC().Format("0102 15:04:05.000000"), 1, from, l.msg)
}

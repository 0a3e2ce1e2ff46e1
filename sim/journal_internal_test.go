package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/clock"
	"kubesim/trace"
)

// The journal keeps each node's last lines, oldest first, and only the kubelets'.
func TestJournalKeepsEachNodesLastKubeletLines(t *testing.T) {
	clk := clock.NewVirtual(time.Date(2026, 12, 2, 23, 0, 0, 0, time.UTC))
	j := newJournal(3)
	record := j.subscriber(clk)
	for i, msg := range []string{"a", "b", "c", "d", "e"} {
		record(trace.Event{Component: "kubelet/node-1", Message: msg})
		record(trace.Event{Component: "kube-scheduler", Message: "not a kubelet's"})
		if i == 0 {
			record(trace.Event{Component: "kubelet/node-2", Message: "x"})
		}
	}
	msgs := func(lines []journalLine) (out []string) {
		for _, l := range lines {
			out = append(out, l.msg)
		}
		return out
	}
	assert.Equal(t, []string{"c", "d", "e"}, msgs(j.last("node-1", -1)), "the last three, oldest first")
	assert.Equal(t, []string{"e"}, msgs(j.last("node-1", 1)))
	assert.Equal(t, []string{"x"}, msgs(j.last("node-2", 10)))
	assert.Empty(t, j.last("node-3", -1))
}

// A component's line takes klog's severity (etcd's, zap's level) from the HTTP status it tells of, and
// names the controller, not the controller manager's replica; kube-proxy's lines name kube-proxy.
func TestComponentLinesTakeTheirSeverityFromTheStatus(t *testing.T) {
	at := time.Date(2026, 12, 3, 4, 5, 6, 789_000, time.UTC)
	for _, tc := range []struct {
		code      int
		from      string
		klog, zap string
	}{
		{0, "kube-controller-manager-2/deployment-controller", "I1203 04:05:06.000789       1 deployment-controller] m",
			`{"level":"info","ts":"2026-12-03T04:05:06.000789Z","msg":"m"}`},
		{409, "kube-apiserver", "W1203 04:05:06.000789       1 kube-apiserver] m",
			`{"level":"warn","ts":"2026-12-03T04:05:06.000789Z","msg":"m"}`},
		{503, "kube-proxy/node-1", "E1203 04:05:06.000789       1 kube-proxy] m",
			`{"level":"error","ts":"2026-12-03T04:05:06.000789Z","msg":"m"}`},
	} {
		l := journalLine{at: at, msg: "m", from: tc.from, code: tc.code}
		assert.Equal(t, tc.klog, klogLine(l))
		assert.Equal(t, tc.zap, zapLine(l))
	}
}

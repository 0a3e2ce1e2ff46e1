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

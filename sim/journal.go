// journal.go: what `journalctl -u kubelet` shows on a node, for a paused run's prompt: the last lines
// each kubelet recorded (its trace lines, component kubelet/NODE), kept per node when the cluster is
// configured to (Config.JournalLines), as journald keeps the unit's log. The articles' first command
// for a NotReady node (article 1, 5.3 and 7.4) is `journalctl -u kubelet -f -n 200`.
//
//	journalctl -u kubelet [-n N] [--node NODE]   the last N lines (all kept, without -n)
//
// Each line is journald's short format, `Dec 02 23:10:11 node-1 kubelet: MESSAGE`, with the cluster's
// clock; the message is the kubelet's line as the story tells it, not klog's own wording. -f is taken
// and does nothing more: a paused run has nothing to follow.
package sim

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"kubesim/clock"
	"kubesim/trace"
)

// PromptJournalLines is how many kubelet lines per node a run with a prompt keeps (a paused kubesim
// run, kubesim serve --step).
const PromptJournalLines = 1000

// journal keeps the last lines of each unit: each node's kubelet here, each control-plane component
// in component_logs.go.
type journal struct {
	max   int
	unit  func(trace.Event) (string, bool) // which unit a trace line belongs to, if any
	mu    sync.Mutex
	nodes map[string]*journalRing // by unit; guarded by mu
}

// journalRing is one unit's lines, oldest first once full (next is where the next line goes).
type journalRing struct {
	lines []journalLine
	next  int
}

type journalLine struct {
	at   time.Time
	msg  string
	from string // the trace's component
	code int    // the trace line's HTTP status, if any
}

// newJournal keeps each node's last max kubelet lines.
func newJournal(max int) *journal { return newUnitLog(max, kubeletUnit) }

func newUnitLog(max int, unit func(trace.Event) (string, bool)) *journal {
	return &journal{max: max, unit: unit, nodes: map[string]*journalRing{}}
}

// kubeletUnit files a kubelet's line under its node.
func kubeletUnit(e trace.Event) (string, bool) { return strings.CutPrefix(e.Component, "kubelet/") }

// subscriber returns what the trace calls with each event: a unit's line goes to its ring.
func (j *journal) subscriber(clk clock.Clock) func(trace.Event) {
	return func(e trace.Event) {
		unit, ok := j.unit(e)
		if !ok {
			return
		}
		j.mu.Lock()
		defer j.mu.Unlock()
		r := j.nodes[unit]
		if r == nil {
			r = &journalRing{}
			j.nodes[unit] = r
		}
		l := journalLine{at: clk.Now(), msg: e.Message, from: e.Component, code: e.Code}
		if len(r.lines) < j.max {
			r.lines = append(r.lines, l)
			return
		}
		r.lines[r.next] = l
		r.next = (r.next + 1) % j.max
	}
}

// last returns node's last n lines, oldest first (all of them when n < 0).
func (j *journal) last(node string, n int) []journalLine {
	j.mu.Lock()
	defer j.mu.Unlock()
	r := j.nodes[node]
	if r == nil {
		return nil
	}
	lines := append(append([]journalLine(nil), r.lines[r.next:]...), r.lines[:r.next]...)
	if n >= 0 && n < len(lines) {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// inspectJournal runs `journalctl ARGS` on a node.
func (c *Cluster) inspectJournal(w io.Writer, args []string) error {
	node, args := takeNodeFlag(args)
	var (
		unit string
		n    = -1
	)
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-u" && i+1 < len(args), a == "--unit" && i+1 < len(args):
			i++
			unit = args[i]
		case strings.HasPrefix(a, "--unit="):
			unit = strings.TrimPrefix(a, "--unit=")
		case (a == "-n" || a == "--lines") && i+1 < len(args):
			i++
			v, err := strconv.Atoi(args[i])
			if err != nil || v < 0 {
				return fmt.Errorf("journalctl: -n takes a number of lines, not %q", args[i])
			}
			n = v
		case a == "-f" || a == "--follow" || a == "--no-pager":
		default:
			return fmt.Errorf("journalctl: unknown argument %q (journalctl -u kubelet [-n N] --node NODE)", a)
		}
	}
	if unit != "kubelet" && unit != "kubelet.service" {
		return fmt.Errorf("journalctl: only the kubelet's unit is kept here: journalctl -u kubelet [-n N] --node NODE")
	}
	if c.journal == nil {
		return fmt.Errorf("journalctl: this run keeps no journal: a real-time cluster traces nothing nobody reads (kubesim serve --step and a paused kubesim run keep one)")
	}
	nd, err := c.nodeFor("journalctl", node)
	if err != nil {
		return err
	}
	lines := c.journal.last(nd.Name, n)
	if len(lines) == 0 {
		fmt.Fprintln(w, "-- No entries --")
		return nil
	}
	for _, l := range lines {
		fmt.Fprintf(w, "%s %s kubelet: %s\n", l.at.Format("Jan 02 15:04:05"), nd.Name, l.msg)
	}
	return nil
}

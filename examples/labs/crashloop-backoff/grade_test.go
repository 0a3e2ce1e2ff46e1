// grade_test.go: the grader. A one-node cluster whose kubelet uses your Delay runs a container that
// exits at once; the grader lets 15 minutes pass and measures the time between one start of the
// container and the next. Then the crash-loop scenario, played with your Delay, must tell the story
// that Kubernetes' own back-off tells.
package crashloopbackoff

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kubesim/lab"
	"kubesim/scenarios"
	"kubesim/scenarios/manifests"
	"kubesim/trace"
)

// started skips (or, grading the reference, fails) while Delay still answers TODO.
func started(t *testing.T) {
	t.Helper()
	lab.NotStarted(t, Started())
}

// starts are the times the kubelet started the crasher's container.
func starts(events []trace.Event) []time.Duration {
	var at []time.Duration
	for _, e := range events {
		if strings.HasPrefix(e.Component, "kubelet/") && e.Object == "pods/default/crasher" &&
			strings.HasPrefix(e.Message, "CreateContainer + StartContainer app") {
			at = append(at, time.Duration(e.Time))
		}
	}
	return at
}

func TestACrashingContainerIsRestartedWithDoublingDelays(t *testing.T) {
	started(t)
	l := lab.New(t, lab.Nodes(1), lab.CrashLoopBackOff(Policy()))
	l.Apply(manifests.Read("crasher.yaml")) // busybox, sh -c "exit 1": it crashes as soon as it starts
	l.Advance(16 * time.Minute)
	at := starts(l.Cluster.Trace.Events())
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second,
		160 * time.Second, Max, Max}
	var gaps []string
	var last time.Duration // the delay before this one (0 before the first)
	for i, w := range want[:min(len(want), max(0, len(at)-2))] {
		gap := (at[i+2] - at[i+1]).Round(time.Second)
		gaps = append(gaps, gap.String())
		// The container exits as soon as it starts: the gap between two starts is the delay.
		if gap < w || gap > w+2*time.Second {
			t.Fatalf("restart %d came %s after the crash before it; Kubernetes waits %s: "+
				"the first crash waits Initial (10s), each next one twice the last, never more than Max (5m).\n"+
				"Delays so far: %s. Your Delay(%s) = %s. The kubelet's story:%s",
				i+2, gap, w, strings.Join(gaps, ", "), last, delayOf(last), restarts(l.Cluster.Trace.Events()))
		}
		last = gap
	}
	// The first crash is restarted at once (the kubelet only starts counting then: Next records it);
	// the delays are between the restarts after it.
	if len(at) < len(want)+2 {
		t.Fatalf("in 16 minutes the kubelet started crasher's container %d times; with Kubernetes' back-off "+
			"(10s, 20s, 40s, ... up to 5m) it would have started it %d times at least. The kubelet's story:%s",
			len(at), len(want)+2, restarts(l.Cluster.Trace.Events()))
	}
	l.ExpectEvent("BackOff", "Back-off restarting failed container app in pod crasher_default")
}

// The crash-loop scenario (kubesim run crash-loop) played with your Delay in every kubelet tells
// the story Kubernetes' back-off tells, line for line; if not, the failure shows the first line
// where they part.
func TestTheCrashLoopScenarioTellsTheSameStory(t *testing.T) {
	started(t)
	sc, _ := scenarios.Lookup("crash-loop")
	lab.SameStory(t, sc, Swap())
}

func delayOf(d time.Duration) string {
	got, err := Delay(d)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(got)
}

// restarts is the kubelet's story of the crasher's starts and exits, for a failure message.
func restarts(events []trace.Event) string {
	var b strings.Builder
	for _, e := range events {
		if e.Object == "pods/default/crasher" && (strings.HasPrefix(e.Message, "CreateContainer + StartContainer app") ||
			strings.HasPrefix(e.Message, "container app exited (")) {
			fmt.Fprintf(&b, "\n    %-10s %s", e.Time, e.Message)
		}
	}
	return b.String()
}

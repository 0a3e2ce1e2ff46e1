// grade_test.go: the grader. A one-node cluster whose kubelet uses your Delay runs a container that
// exits at once; the grader lets 16 minutes pass and checks each back-off the kubelet applied, and
// the time between one start of the container and the next (the back-off, then the pod worker's
// next retry). Then the crash-loop scenario, played with your Delay, must tell the story
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

// retryWithin is how late after its back-off a crashed container may start: the kubelet restarts it
// at the pod worker's first retry after the back-off ends, and a failed sync is retried after
// backOffPeriod (10s) plus up to half of it in jitter, handed back on the next 1s tick.
const retryWithin = 17 * time.Second

func TestACrashingContainerIsRestartedWithDoublingDelays(t *testing.T) {
	started(t)
	l := lab.New(t, lab.Nodes(1), lab.CrashLoopBackOff(Policy()))
	l.Apply(manifests.Read("crasher.yaml")) // busybox, sh -c "exit 1": it crashes as soon as it starts
	l.Advance(16 * time.Minute)
	events := l.Cluster.Trace.Events()
	at, applied := starts(events), backOffs(events)
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second,
		160 * time.Second, Max, Max}
	var gaps []string
	var last time.Duration // the back-off before this one (0 before the first)
	for i, w := range want[:min(len(want), len(applied), max(0, len(at)-2))] {
		gap := (at[i+2] - at[i+1]).Round(time.Second)
		gaps = append(gaps, gap.String())
		// The container exits as soon as it starts: the gap between two starts is the back-off the
		// kubelet applied, plus the wait for the pod worker's next retry.
		if applied[i] != w || gap < w || gap > w+retryWithin {
			t.Fatalf("restart %d waited a back-off of %s and came %s after the crash before it; Kubernetes waits %s "+
				"(then restarts at the pod worker's next retry, at most %s later): the first crash waits Initial (10s), "+
				"each next one twice the last, never more than Max (5m).\n"+
				"Gaps so far: %s. Your Delay(%s) = %s. The kubelet's story:%s",
				i+2, applied[i], gap, w, retryWithin, strings.Join(gaps, ", "), last, delayOf(last), restarts(events))
		}
		last = applied[i]
	}
	// The first crash is restarted at once (the kubelet only starts counting then: Next records it);
	// the delays are between the restarts after it.
	if len(at) < len(want)+2 || len(applied) < len(want) {
		t.Fatalf("in 16 minutes the kubelet started crasher's container %d times; with Kubernetes' back-off "+
			"(10s, 20s, 40s, ... up to 5m) it would have started it %d times at least. The kubelet's story:%s",
			len(at), len(want)+2, restarts(events))
	}
	l.ExpectEvent("BackOff", "Back-off restarting failed container app in pod crasher_default")
}

// backOffs are the back-offs the kubelet applied after each crash, in order, from its story
// ("... CrashLoopBackOff, back-off 20s, over in 20s").
func backOffs(events []trace.Event) []time.Duration {
	var out []time.Duration
	for _, e := range events {
		if e.Object != "pods/default/crasher" || !strings.HasPrefix(e.Message, "container app exited (") {
			continue
		}
		_, rest, ok := strings.Cut(e.Message, "CrashLoopBackOff, back-off ")
		if !ok {
			continue
		}
		word, _, _ := strings.Cut(rest, ",")
		if d, err := time.ParseDuration(word); err == nil {
			out = append(out, d)
		}
	}
	return out
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

// grade_test.go: the grader. Two candidates, a and b, run your code in a cluster with only etcd and
// the apiserver; the grader lets time pass, cuts the leader off the apiserver, and checks who acted
// when.
package leaderelection

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kubesim/lab"
	"kubesim/sim"
)

// candidates builds the cluster and candidates a and b; it skips (or, grading the reference, fails)
// while TryAcquireOrRenew still answers TODO.
func candidates(t *testing.T) (*lab.Lab, *Candidate, *Candidate) {
	t.Helper()
	// A probe on a cluster of its own (so that the Lease it may take is not the one a and b compete for).
	scratch := lab.New(t, lab.Bare())
	probe, err := NewCandidate(context.Background(), scratch.Cluster, "probe")
	if err != nil {
		t.Fatal(err)
	}
	_, err = probe.TryAcquireOrRenew(context.Background(), scratch.Cluster.Clock.Now())
	lab.NotStarted(t, err)

	l := lab.New(t, lab.Bare())
	a, err := NewCandidate(context.Background(), l.Cluster, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewCandidate(context.Background(), l.Cluster, "b")
	if err != nil {
		t.Fatal(err)
	}
	return l, a, b
}

// since is a time as the story shows it: cluster time since the start.
func since(at time.Time) time.Duration { return at.Sub(sim.Epoch) }

func acts(c *Candidate) string {
	var s []string
	for _, at := range c.Acts {
		s = append(s, since(at).String())
	}
	if len(s) > 6 {
		s = append(s[:3], append([]string{"..."}, s[len(s)-3:]...)...)
	}
	return fmt.Sprintf("%s acted at [%s]", c.Identity, strings.Join(s, " "))
}

func TestOneCandidateLeadsTheOtherWaits(t *testing.T) {
	l, a, b := candidates(t)
	l.Advance(time.Minute)
	switch {
	case len(a.Acts) == 0 && len(b.Acts) == 0:
		t.Fatalf("in a minute neither candidate acted: nobody acquired the Lease. The Lease's story:%s", l.StoryOf("leases/default/lab-leader"))
	case len(a.Acts) > 0 && len(b.Acts) > 0:
		t.Fatalf("both candidates acted (%s; %s), though neither was cut off: the one that did not create the Lease "+
			"must wait while the holder renews it. The Lease's story:%s", acts(a), acts(b), l.StoryOf("leases/default/lab-leader"))
	}
	leader := a
	if len(b.Acts) > 0 {
		leader = b
	}
	if n := len(leader.Acts); n < 25 {
		t.Fatalf("%s led for a minute but acted only %d times, not every %s: does it renew its own Lease? %s",
			leader.Identity, n, RetryPeriod, acts(leader))
	}
}

func TestACutOffLeaderStopsBeforeTheOtherTakesOver(t *testing.T) {
	l, a, b := candidates(t)
	l.Advance(10 * time.Second)
	leader, other := a, b
	if len(b.Acts) > 0 {
		leader, other = b, a
	}
	if len(leader.Acts) == 0 {
		t.Fatalf("after 10s nobody leads: %s; %s", acts(a), acts(b))
	}
	cut := l.Cluster.Clock.Now()
	l.Cluster.Partition(leader.Identity) // the network between the leader and the apiserver fails
	l.Advance(time.Minute)

	if len(other.Acts) == 0 {
		t.Fatalf("%s was cut off at %s; a minute later %s still has not taken the Lease over (it may once the Lease "+
			"has not changed for %s, measured on its own clock). The Lease's story:%s",
			leader.Identity, since(cut), other.Identity, LeaseDuration, l.StoryOf("leases/default/lab-leader"))
	}
	took := other.Acts[0]
	last := leader.Acts[len(leader.Acts)-1]
	if !last.Before(took) {
		t.Fatalf("split brain: %s, cut off at %s, acted at %s, after %s took the Lease over at %s: two leaders acted at once. "+
			"A leader that cannot renew must stop once %s have passed since its last successful renew (at %s); "+
			"the others wait %s, so it has stopped by the time they take over.\n  %s\n  %s",
			leader.Identity, since(cut), since(last), other.Identity, since(took), RenewDeadline, since(leader.LastRenew),
			LeaseDuration, acts(leader), acts(other))
	}
	if last.Sub(leader.LastRenew) >= RenewDeadline {
		t.Errorf("%s acted at %s, %s after its last successful renew: a leader stops acting once %s have passed",
			leader.Identity, since(last), last.Sub(leader.LastRenew), RenewDeadline)
	}
}

// storydiff.go: the story diff. A scenario played with your component and played with the built-in
// one tells two stories; in step mode, with the same seed, they are the same line for line until the
// first moment your component does something else. The diff finds that moment and shows it: the
// line number, the time, the step of the scenario, the reference line and yours, with the lines
// before them that both stories share.
//
//	DiffStories(reference, yours, swaps...) StoryDiff
//	Compare(ctx, scenario, seed, swaps...)     plays both, quietly, and diffs them
//	(StoryDiff).String()                       the report a learner reads
//
// The lines compared are those of the whole text story (kubesim run NAME --verbose): time,
// component and message. Your component's name is read as the built-in one's, so a plugin of yours
// that behaves like the default one tells the same story. A controller tells its work in its own
// words, so for it the diff compares what the rest of the cluster saw it do (its writes in etcd and
// everything that followed), not what it said.
package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"kubesim/narrate"
	"kubesim/sim"
	"kubesim/trace"
)

// StoryLine is one line of a story as the diff compares it.
type StoryLine struct {
	N         int    // its number among the compared lines, from 1
	Time      string // cluster time
	Component string
	Message   string
	Step      string // the scenario's step it belongs to ("3. Each crash doubles ..."), or the boot
}

func (l StoryLine) same(o StoryLine) bool {
	return l.Time == o.Time && l.Component == o.Component && l.Message == o.Message
}

func (l StoryLine) String() string {
	return fmt.Sprintf("%-8s %-23s %s", l.Time, l.Component, l.Message)
}

// StoryDiff is how the story with your components differs from the reference story.
type StoryDiff struct {
	Swaps            []Swap
	Reference, Yours []StoryLine
	// Equal is how many lines the stories share before the first difference; when Same, all of them.
	Equal int
	Same  bool
	// TODO is the first line of your story that names a TODO(lab): your code is not finished, and
	// the report says so first.
	TODO string
}

// contextLines is how many shared lines the report shows before the first difference.
const contextLines = 3

// DiffStories compares the reference story (the built-in components) with yours (played with the
// swaps, the same scenario and seed).
func DiffStories(reference, yours []trace.Event, swaps ...Swap) StoryDiff {
	d := StoryDiff{Swaps: swaps, Reference: storyLines(reference, swaps, false), Yours: storyLines(yours, swaps, true)}
	n := min(len(d.Reference), len(d.Yours))
	for d.Equal < n && d.Reference[d.Equal].same(d.Yours[d.Equal]) {
		d.Equal++
	}
	d.Same = d.Equal == len(d.Reference) && d.Equal == len(d.Yours)
	for _, e := range yours {
		if strings.Contains(e.Message, todoPrefix) {
			d.TODO = e.Message
			break
		}
	}
	return d
}

// storyLines are the lines of the whole text story, as the diff compares them: in your story
// (yours), your components' names read as the built-in ones'; a controller's own lines left out,
// but for the Events it recorded (kubectl get events shows them).
func storyLines(events []trace.Event, swaps []Swap, yours bool) []StoryLine {
	var out []StoryLine
	step := ""
	for _, e := range events {
		if !narrate.Visible(e, false) {
			continue
		}
		if e.Component == "scenario" {
			step = e.Message
		}
		msg := e.Message
		if e.Action != "" && !strings.HasPrefix(msg, e.Action) {
			msg = e.Action + ": " + msg // as the text story tells it
		}
		l := StoryLine{Time: e.Time.String(), Component: e.Component, Message: msg, Step: step}
		if e.Action != "event" && ownWords(l.Component, swaps) {
			continue
		}
		if yours {
			for _, s := range swaps {
				if s.Yours != "" && s.Replaces != "" && s.Yours != s.Replaces {
					l.Component = strings.ReplaceAll(l.Component, s.Yours, s.Replaces)
					l.Message = strings.ReplaceAll(l.Message, s.Yours, s.Replaces)
				}
			}
		}
		l.N = len(out) + 1
		out = append(out, l)
	}
	return out
}

// ownWords reports whether a line is a controller's own telling of its work, in a story where it is
// swapped: left out of both stories.
func ownWords(component string, swaps []Swap) bool {
	for _, s := range swaps {
		if s.ownWords && (component == s.Replaces || s.Yours != "" && strings.HasPrefix(component, s.Yours)) {
			return true
		}
	}
	return false
}

// String is the report: a summary line, then the first difference with the shared lines before it.
func (d StoryDiff) String() string {
	var b strings.Builder
	var what []string
	for _, s := range d.Swaps {
		what = append(what, s.String())
	}
	fmt.Fprintf(&b, "story diff (%s) against the reference story (the built-in components):\n", strings.Join(what, "; "))
	if d.TODO != "" {
		fmt.Fprintf(&b, "  not started: your story says %q; write that code first.\n", d.TODO)
	}
	if d.Same {
		fmt.Fprintf(&b, "  the %d lines are the same: %s\n", d.Equal, sameMeans(d.Swaps))
		return b.String()
	}
	ref, yours := lineAt(d.Reference, d.Equal), lineAt(d.Yours, d.Equal)
	at, from := yours, yours.Component
	if at == nil {
		at = ref
	}
	if ref != nil && yours != nil && ref.Component != yours.Component {
		from = "reference " + ref.Component + ", yours " + yours.Component
	} else if yours == nil {
		from = ref.Component
	}
	fmt.Fprintf(&b, "  %d lines equal, first difference at line %d (at %s, from %s, in step %q):\n",
		d.Equal, d.Equal+1, at.Time, from, at.Step)
	for _, l := range d.Reference[max(0, d.Equal-contextLines):d.Equal] {
		fmt.Fprintf(&b, "    %5d  %s\n", l.N, l)
	}
	fmt.Fprintf(&b, "  reference:\n%s", lineOr(ref, "(the reference story ends here)"))
	fmt.Fprintf(&b, "  yours:\n%s", lineOr(yours, "(your story ends here)"))
	fmt.Fprintf(&b, "  the reference story has %d lines, yours %d.\n", len(d.Reference), len(d.Yours))
	return b.String()
}

// sameMeans says what two equal stories mean: a replacement behaves as the built-in one; an added
// component changed nothing in this scenario (it may have had nothing to do in it).
func sameMeans(swaps []Swap) string {
	for _, s := range swaps {
		if s.Replaces != "" {
			return "here, your component behaves as the built-in one."
		}
	}
	return "your component changed nothing in this scenario (did anything in it ask for what it does?)."
}

// lineAt is lines[i], or nil past the end.
func lineAt(lines []StoryLine, i int) *StoryLine {
	if i < len(lines) {
		return &lines[i]
	}
	return nil
}

func lineOr(l *StoryLine, end string) string {
	if l == nil {
		return "           " + end + "\n"
	}
	return fmt.Sprintf("    %5d  %s\n", l.N, *l)
}

// RunWith plays sc with your swaps in step mode, telling the story as o says (kubesim run NAME
// --with ...), then plays the reference quietly with the same seed and returns the diff with your run's verdict. err
// is the reference run's failure, or your run's interruption.
func RunWith(ctx context.Context, sc sim.Scenario, o sim.PlayOptions, swaps ...Swap) (d StoryDiff, yourErr, err error) {
	if o.Speed > 0 {
		return StoryDiff{}, nil, errors.New("a story diff compares stories played in step mode: leave Speed 0")
	}
	yours, yourErr := PlayWith(ctx, sc, o, swaps...)
	if errors.Is(yourErr, sim.ErrInterrupted) {
		return StoryDiff{}, yourErr, yourErr
	}
	reference, err := PlayWith(ctx, sc, sim.PlayOptions{Seed: o.Seed, Out: io.Discard})
	if err != nil {
		return StoryDiff{}, yourErr, fmt.Errorf("the reference story of %s: %w", sc.Name, err)
	}
	return DiffStories(reference, yours, swaps...), yourErr, nil
}

// Compare plays sc twice with the same seed, quietly, with your swaps and with the built-in
// components, and diffs the stories (RunWith, telling nothing).
func Compare(ctx context.Context, sc sim.Scenario, seed int64, swaps ...Swap) (d StoryDiff, yourErr, err error) {
	return RunWith(ctx, sc, sim.PlayOptions{Seed: seed, Out: io.Discard}, swaps...)
}

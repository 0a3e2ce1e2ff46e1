package narrate

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/trace"
)

// Wrapping breaks between words, never inside one ("timeou / t=10s" was issue 9's example), and
// keeps every line within the width.
func TestWrapNeverSplitsAWord(t *testing.T) {
	msg := "schedule default/web: 0 of 3 nodes pass Filter -> unschedulable: webhook timeout=10s exceeded while calling"
	for width := 24; width <= 60; width++ {
		lines := wrap(msg, width)
		assert.Equal(t, strings.Fields(msg), strings.Fields(strings.Join(lines, " ")), "width %d: words kept whole", width)
		for _, l := range lines {
			assert.LessOrEqual(t, textWidth(l), width, "width %d: %q", width, l)
		}
	}
}

// Chinese has no spaces: it breaks between characters, but never before closing punctuation, and a
// Chinese character takes two columns.
func TestWrapBreaksChineseBetweenCharacters(t *testing.T) {
	lines := wrap("调谐 default/nginx：期望 3 个，现有 0 个 -> 创建 3 个 Pod（记下 expectations）", 24)
	for _, l := range lines {
		assert.LessOrEqual(t, textWidth(l), 24, l)
		assert.False(t, strings.HasPrefix(l, "，") || strings.HasPrefix(l, "）") || strings.HasPrefix(l, "："), l)
	}
	assert.Equal(t, "调谐default/nginx：期望3个，现有0个->创建3个Pod（记下expectations）",
		strings.ReplaceAll(strings.Join(lines, ""), " ", ""))
}

// A word longer than a whole line is the one thing cut, at a '/' where it has one.
func TestWrapCutsOnlyAWordLongerThanALine(t *testing.T) {
	lines := wrap("put /registry/leases/kube-system/kube-controller-manager -> revision 21", 30)
	assert.Equal(t, []string{"put /registry/leases/", "kube-system/", "kube-controller-manager ->", "revision 21"}, lines)
}

// The text story fits the width it is given, and its columns stay aligned when times grow past the
// time column: the column widens once, under a new header.
func TestTextColumnsStayAlignedWhenTimesWiden(t *testing.T) {
	var out bytes.Buffer
	n := newText(&out, Options{Width: 80})
	for i, d := range []time.Duration{0, 3339 * time.Millisecond, time.Hour + 5*time.Minute + 1500*time.Millisecond, 2 * time.Hour} {
		n.Event(trace.Event{Seq: int64(i + 1), Time: trace.Duration(d), Component: "kube-scheduler", Action: "bind",
			Message: "bind default/nginx-77bf8679f9-kcdkw -> node-2 (the only feasible node: Score skipped)"})
	}
	var firsts []int
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		assert.LessOrEqual(t, textWidth(l), 80, l)
		if i := strings.Index(l, "kube-scheduler"); i >= 0 {
			firsts = append(firsts, i)
		}
	}
	require.Len(t, firsts, 4)
	assert.Equal(t, firsts[0], firsts[1], "times that fit keep the column")
	assert.Equal(t, firsts[2], firsts[3], "after widening, lines align with each other")
	assert.Equal(t, 2, strings.Count(out.String(), "what happened"), "the widened columns get a new header")
}

// A 10,000-character name is printed once in the story, however often its lines mention it.
func TestLongNamePrintedOnce(t *testing.T) {
	name := strings.Repeat("a", 10000)
	var out bytes.Buffer
	n := newText(&out, Options{Width: 80})
	n.Event(trace.Event{Seq: 1, Component: "kube-apiserver", Action: "validate", Code: 422,
		Message: "create pods default/" + name + ` -> 422 Pod "` + name + `" is invalid: metadata.name: Invalid value: "` + name + `": must be no more than 253 characters`})
	n.Event(trace.Event{Seq: 2, Component: "kubectl", Action: "error", Code: 422,
		Message: `Error from server (Invalid): Pod "` + name + `" is invalid: metadata.name: Invalid value: "` + name + `"`})
	joined := strings.ReplaceAll(out.String(), "\n", "")
	joined = strings.Join(strings.Fields(joined), "")
	assert.Equal(t, 1, strings.Count(joined, name))
	assert.Contains(t, joined, "aaaaaaaaaaaaaaaa…(10000characters)")
}

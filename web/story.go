// story.go: the text story, cut into lines the page can lay out in lanes. The story arrives as the
// terminal's text (no colour, no wrapping); each line is one of: a section heading ("── 1. ... ──"),
// a step of the article's timeline ("▸ the scheduler ..."), the column header, an event ("  415  0s
// kube-scheduler  bind ..."), or a note under the last event (what the short story folded).
//
//	Story(publish)   an io.Writer that hands each complete line to publish, parsed
package web

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Line is one line of the story.
type Line struct {
	Kind      string `json:"kind"` // heading, step, header, event, note
	Text      string `json:"text"` // the line as the terminal shows it
	Seq       int64  `json:"seq,omitempty"`
	Time      string `json:"time,omitempty"`
	Component string `json:"component,omitempty"` // event: who acted; note: the event's it is under
	Message   string `json:"message,omitempty"`
}

// eventLine is an event of the text story: its number, time, component and message (a component
// name longer than its column stands alone; its message follows on the next lines).
var eventLine = regexp.MustCompile(`^ *(\d+)  (\S+) +(\S+)(?:  +(.*))?$`)

// storyWriter cuts what it is written into lines.
type storyWriter struct {
	mu        sync.Mutex
	partial   []byte // a line not ended yet
	component string // the last event's, for the notes under it
	publish   func(Line)
}

// Story returns a writer for the text story that calls publish with each line, in order.
func Story(publish func(Line)) io.Writer { return &storyWriter{publish: publish} }

func (s *storyWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		s.publish(s.parse(string(s.partial[:i])))
		s.partial = s.partial[i+1:]
	}
}

func (s *storyWriter) parse(text string) Line {
	l := Line{Text: text}
	trimmed := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(text, "── "):
		l.Kind = "heading"
	case strings.HasPrefix(text, "▸ "):
		l.Kind = "step"
	case strings.HasPrefix(trimmed, "# "):
		l.Kind = "header"
	default:
		if m := eventLine.FindStringSubmatch(text); m != nil {
			l.Kind, l.Time, l.Component, l.Message = "event", m[2], m[3], m[4]
			l.Seq, _ = strconv.ParseInt(m[1], 10, 64)
			s.component = l.Component
			break
		}
		l.Kind, l.Component, l.Message = "note", s.component, trimmed
		if trimmed == "" {
			l.Component = ""
		}
	}
	return l
}

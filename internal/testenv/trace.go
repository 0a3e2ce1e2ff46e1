// trace.go: what components wrote to a cluster's trace, for assertions.
package testenv

import (
	"slices"

	"kubesim/sim"
	"kubesim/trace"
)

// Messages are the messages the components wrote to c's trace, in order, routine (Detail) lines
// included.
func Messages(c *sim.Cluster, components ...string) []string { return messages(c, false, components) }

// Story is Messages without the routine lines: what a narrator shows by default.
func Story(c *sim.Cluster, components ...string) []string { return messages(c, true, components) }

// StoryEvents are the events behind Story, for a test that shows more of each than its message.
func StoryEvents(c *sim.Cluster, components ...string) []trace.Event {
	return events(c, true, components)
}

func messages(c *sim.Cluster, storyOnly bool, components []string) []string {
	var out []string
	for _, e := range events(c, storyOnly, components) {
		out = append(out, e.Message)
	}
	return out
}

func events(c *sim.Cluster, storyOnly bool, components []string) []trace.Event {
	var out []trace.Event
	for _, e := range c.Trace.Events() {
		if slices.Contains(components, e.Component) && !(storyOnly && e.Detail) {
			out = append(out, e)
		}
	}
	return out
}

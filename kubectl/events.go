// events.go: the Events section that ends every `kubectl describe`: the events whose involvedObject
// is the described object, oldest first, with their age as kubectl prints ages ("45s", "3m12s",
// "2d") and repeats folded ("10s (x4 over 2m)").
package kubectl

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"text/tabwriter"
	"time"

	"kubesim/api"
	"kubesim/client"
)

// eventsAbout lists the events about obj (kubectl's field selector on involvedObject).
func (k *Kubectl) eventsAbout(ctx context.Context, res *api.Resource, obj api.Object) ([]*api.Event, error) {
	m := obj.GetObjectMeta()
	sel := fmt.Sprintf("involvedObject.kind=%s,involvedObject.name=%s,involvedObject.uid=%s", res.Kind, m.Name, m.UID)
	if m.Namespace != "" {
		sel += ",involvedObject.namespace=" + m.Namespace
	}
	// Events about a cluster-scoped object (a Node) have a namespace of their own choosing
	// (Kubernetes' recorders use default): for those, search every namespace.
	events, _, err := client.For[api.Event](k.client).List(ctx, m.Namespace, client.ListOptions{FieldSelector: sel})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(events, func(a, b *api.Event) int { return cmp.Compare(lastSeen(a).UnixNano(), lastSeen(b).UnixNano()) })
	return events, nil
}

func describeEvents(w *tabwriter.Writer, events []*api.Event, now time.Time) {
	if !section(w, "Events", len(events)) {
		return
	}
	fmt.Fprintf(w, "  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n")
	for _, e := range events {
		age := humanDuration(now.Sub(lastSeen(e)))
		if e.Count > 1 {
			age = fmt.Sprintf("%s (x%d over %s)", age, e.Count, humanDuration(now.Sub(firstSeen(e))))
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\n", e.Type, e.Reason, age, eventSource(e), e.Message)
	}
}

// eventSource is the From column: the reporting component, and its host or instance if any.
func eventSource(e *api.Event) string {
	component := cmp.Or(e.Source.Component, e.ReportingController)
	instance := cmp.Or(e.Source.Host, e.ReportingInstance)
	switch {
	case component == "":
		return "<unknown>"
	case instance == "":
		return component
	}
	return component + ", " + instance
}

func firstSeen(e *api.Event) time.Time {
	if e.FirstTimestamp.IsZero() {
		return e.EventTime.Time
	}
	return e.FirstTimestamp.Time
}

func lastSeen(e *api.Event) time.Time {
	if e.LastTimestamp.IsZero() {
		return firstSeen(e)
	}
	return e.LastTimestamp.Time
}

// humanDuration rounds an age the way kubectl prints it (apimachinery's duration.HumanDuration):
// exact seconds for the first two minutes, then coarser as the age grows.
func humanDuration(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 0:
		return "0s"
	case s < 120:
		return fmt.Sprintf("%ds", s)
	}
	m := s / 60
	switch {
	case m < 10 && s%60 != 0:
		return fmt.Sprintf("%dm%ds", m, s%60)
	case m < 180:
		return fmt.Sprintf("%dm", m)
	}
	h := m / 60
	switch {
	case h < 8 && m%60 != 0:
		return fmt.Sprintf("%dh%dm", h, m%60)
	case h < 48:
		return fmt.Sprintf("%dh", h)
	case h < 24*8 && h%24 != 0:
		return fmt.Sprintf("%dd%dh", h/24, h%24)
	}
	return fmt.Sprintf("%dd", h/24)
}

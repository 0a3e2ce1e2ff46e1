// table_core.go: the Table columns of pods, nodes and events, the three kinds a learner reads most
// when something is wrong, with the cell wording of Kubernetes' printers (printPod, printNode,
// printEvent): a pod's STATUS is the most telling container reason (CrashLoopBackOff, ErrImagePull,
// OOMKilled, Terminating), not its phase.
package httpfront

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kubesim/api"
)

var podColumns = []column{nameColumn,
	{name: "Ready", typ: "string", describe: "The aggregate readiness state of this pod for accepting traffic.",
		cell: func(_ *Handler, o api.Object) any { return podSummary(o.(*api.Pod)).ready }},
	{name: "Status", typ: "string", describe: "The aggregate status of the containers in this pod.",
		cell: func(_ *Handler, o api.Object) any { return podSummary(o.(*api.Pod)).reason }},
	{name: "Restarts", typ: "string", describe: "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
		cell: func(h *Handler, o api.Object) any {
			s := podSummary(o.(*api.Pod))
			if s.lastRestart.IsZero() {
				return fmt.Sprintf("%d", s.restarts)
			}
			return fmt.Sprintf("%d (%s ago)", s.restarts, h.since(s.lastRestart))
		}},
	ageColumn,
	{name: "IP", typ: "string", wide: true, describe: "The IP address assigned to the pod",
		cell: func(_ *Handler, o api.Object) any { return orNone(o.(*api.Pod).Status.PodIP) }},
	{name: "Node", typ: "string", wide: true, describe: "The name of the node the pod is assigned to",
		cell: func(_ *Handler, o api.Object) any { return orNone(o.(*api.Pod).Spec.NodeName) }},
	{name: "Nominated Node", typ: "string", wide: true, describe: "The name of the node where the pod is nominated to run when it preempted others",
		cell: func(_ *Handler, o api.Object) any { return orNone(o.(*api.Pod).Status.NominatedNodeName) }},
	{name: "Readiness Gates", typ: "string", wide: true, describe: "The readiness gates of the pod (kubesim has none)",
		cell: func(_ *Handler, o api.Object) any { return "<none>" }},
}

// podRow is what printPod works out from a pod's container statuses.
type podRow struct {
	ready       string // "1/1"
	reason      string // "Running", "CrashLoopBackOff", "Terminating", ...
	restarts    int32
	lastRestart time.Time
}

func podSummary(p *api.Pod) podRow {
	r := podRow{reason: api.PodStatusColumn(p)}
	readyContainers := 0
	if _, initializing := api.InitStatus(p); initializing {
		// While init containers run, RESTARTS counts theirs.
		for _, c := range p.Status.InitContainerStatuses {
			r.restarts += c.RestartCount
		}
	} else {
		for _, c := range p.Status.ContainerStatuses {
			r.restarts += c.RestartCount
			if t := c.LastTerminationState.Terminated; t != nil && t.FinishedAt.After(r.lastRestart) {
				r.lastRestart = t.FinishedAt.Time
			}
			if c.Ready && c.State.Running != nil {
				readyContainers++
			}
		}
	}
	r.ready = fmt.Sprintf("%d/%d", readyContainers, len(p.Spec.Containers))
	return r
}

var nodeColumns = []column{nameColumn,
	{name: "Status", typ: "string", describe: "The status of the node",
		cell: func(_ *Handler, o api.Object) any { return nodeStatus(o.(*api.Node)) }},
	{name: "Roles", typ: "string", describe: "The roles of the node",
		cell: func(_ *Handler, o api.Object) any { return nodeRoles(o.(*api.Node)) }},
	ageColumn,
	{name: "Version", typ: "string", describe: "Kubelet Version reported by the node.",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.Node).Status.NodeInfo.KubeletVersion }},
	{name: "Internal-IP", typ: "string", wide: true, describe: "List of internal IPs in the node.",
		cell: func(_ *Handler, o api.Object) any { return nodeAddress(o.(*api.Node), api.NodeInternalIP) }},
	{name: "External-IP", typ: "string", wide: true, describe: "List of external IPs in the node.",
		cell: func(_ *Handler, o api.Object) any { return nodeAddress(o.(*api.Node), "ExternalIP") }},
	{name: "OS-Image", typ: "string", wide: true, describe: "OS image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
		cell: func(_ *Handler, o api.Object) any { return orUnknown(o.(*api.Node).Status.NodeInfo.OSImage) }},
	{name: "Kernel-Version", typ: "string", wide: true, describe: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
		cell: func(_ *Handler, o api.Object) any { return orUnknown(o.(*api.Node).Status.NodeInfo.KernelVersion) }},
	{name: "Container-Runtime", typ: "string", wide: true, describe: "Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
		cell: func(_ *Handler, o api.Object) any {
			return orUnknown(o.(*api.Node).Status.NodeInfo.ContainerRuntimeVersion)
		}},
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

// nodeStatus is "Ready", "NotReady" or "Unknown", with ",SchedulingDisabled" for a cordoned node.
func nodeStatus(n *api.Node) string {
	status := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			switch c.Status {
			case api.ConditionTrue:
				status = "Ready"
			case api.ConditionFalse:
				status = "NotReady"
			}
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// nodeRoles reads the node-role.kubernetes.io/<role> labels.
func nodeRoles(n *api.Node) string {
	var roles []string
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if role := strings.TrimPrefix(k, "node-role.kubernetes.io/"); role != "" {
				roles = append(roles, role)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	if len(roles) == 0 {
		return "<none>"
	}
	slices.Sort(roles)
	return strings.Join(roles, ",")
}

func nodeAddress(n *api.Node, t api.NodeAddressType) string {
	var out []string
	for _, a := range n.Status.Addresses {
		if a.Type == t {
			out = append(out, a.Address)
		}
	}
	return orNone(strings.Join(out, ","))
}

var eventColumns = []column{
	{name: "Last Seen", typ: "string", describe: "Time when last this event was observed",
		cell: func(h *Handler, o api.Object) any {
			e := o.(*api.Event)
			first, last := eventTimes(e)
			if e.Count > 1 {
				return fmt.Sprintf("%s (x%d over %s)", h.since(last), e.Count, h.since(first))
			}
			return h.since(last)
		}},
	{name: "Type", typ: "string", describe: "Type of this event (Normal, Warning)",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.Event).Type }},
	{name: "Reason", typ: "string", describe: "The reason for the transition into the object's current status",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.Event).Reason }},
	{name: "Object", typ: "string", describe: "The object that this event is about",
		cell: func(_ *Handler, o api.Object) any {
			ref := o.(*api.Event).InvolvedObject
			return strings.ToLower(ref.Kind) + "/" + ref.Name
		}},
	{name: "Subobject", typ: "string", wide: true, describe: "The subobject this event is about",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.Event).InvolvedObject.FieldPath }},
	{name: "Source", typ: "string", wide: true, describe: "The component reporting this event",
		cell: func(_ *Handler, o api.Object) any {
			e := o.(*api.Event)
			src := e.Source.Component
			if src == "" {
				src = e.ReportingController
			}
			if e.Source.Host != "" {
				src += ", " + e.Source.Host
			}
			return src
		}},
	{name: "Message", typ: "string", describe: "A human-readable description of the status of this operation",
		cell: func(_ *Handler, o api.Object) any { return strings.TrimSpace(o.(*api.Event).Message) }},
	{name: "First Seen", typ: "string", wide: true, describe: "The time at which the event was first recorded",
		cell: func(h *Handler, o api.Object) any {
			first, _ := eventTimes(o.(*api.Event))
			return h.since(first)
		}},
	{name: "Count", typ: "string", wide: true, describe: "The number of times this event has occurred",
		cell: func(_ *Handler, o api.Object) any { return fmt.Sprintf("%d", o.(*api.Event).Count) }},
	{name: "Name", typ: "string", wide: true, describe: "Name must be unique within a namespace.",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.Event).Name }},
}

// eventTimes are an event's first and last sighting: the old timestamps, else eventTime (the newer
// events API), else its creation.
func eventTimes(e *api.Event) (first, last time.Time) {
	first, last = e.FirstTimestamp.Time, e.LastTimestamp.Time
	if first.IsZero() {
		first = e.EventTime.Time
	}
	if last.IsZero() {
		last = e.EventTime.Time
	}
	if first.IsZero() {
		first = e.CreationTimestamp.Time
	}
	if last.IsZero() {
		last = first
	}
	return first, last
}

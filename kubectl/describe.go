// describe.go: `kubectl describe RESOURCE NAME`, the human summary of one object: its metadata, what
// its kind's describer picks from spec and status, and the Events about it. Pods, Deployments,
// Nodes, ResourceQuotas and the storage kinds (describe_storage.go) have describers of their own; any other kind gets the metadata and its Events.
//
//	Describe(ctx, resource, namespace, name) (string, error)
//
// kubesim simplification: the sections show the fields kubesim models (no resource allocation
// tables).
package kubectl

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/wire"
)

// Describe reads an object and the events about it and returns them as kubectl describe prints them.
func (k *Kubectl) Describe(ctx context.Context, resource, namespace, name string) (string, error) {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return "", k.Report(unknownResource(resource))
	}
	if !res.Namespaced {
		namespace = ""
	}
	k.say("request", objectPath(res.Name, namespace, name), "kubectl describe %s %s", res.Singular, namespaced(namespace, name))
	resp, err := k.client.Do(ctx, &wire.Request{Verb: wire.VerbGet, Resource: res.Name, Namespace: namespace, Name: name})
	if err != nil {
		return "", k.Report(err)
	}
	obj := resp.Object
	events, err := k.eventsAbout(ctx, res, obj)
	if err != nil {
		return "", k.Report(err)
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	switch o := obj.(type) {
	case *api.Pod:
		describePod(w, o)
	case *api.Deployment:
		k.describeDeployment(ctx, w, o)
	case *api.Node:
		describeNode(w, o)
	case *api.ResourceQuota:
		describeQuota(w, o)
	case *api.ConfigMap:
		describeConfigMap(w, o)
	case *api.Secret:
		describeSecret(w, o)
	case *api.PersistentVolumeClaim:
		k.describeClaim(ctx, w, o)
	case *api.PersistentVolume:
		describeVolume(w, o)
	case *api.StorageClass:
		describeClass(w, o)
	default:
		describeMeta(w, o.GetObjectMeta())
	}
	describeEvents(w, events, k.cfg.Clock.Now())
	w.Flush()
	return b.String(), nil
}

// describeMeta writes the lines every describer starts with.
func describeMeta(w *tabwriter.Writer, m *api.ObjectMeta) {
	fmt.Fprintf(w, "Name:\t%s\n", m.Name)
	if m.Namespace != "" {
		fmt.Fprintf(w, "Namespace:\t%s\n", m.Namespace)
	}
	fmt.Fprintf(w, "CreationTimestamp:\t%s\n", m.CreationTimestamp.Format(time.RFC1123Z))
	describeMap(w, "Labels", m.Labels, "=")
	describeMap(w, "Annotations", m.Annotations, ": ")
}

// describeMap writes a map one sorted entry per line, or <none>.
func describeMap(w *tabwriter.Writer, title string, m map[string]string, sep string) {
	if len(m) == 0 {
		fmt.Fprintf(w, "%s:\t<none>\n", title)
		return
	}
	for i, key := range slices.Sorted(maps.Keys(m)) {
		if i == 0 {
			fmt.Fprintf(w, "%s:\t%s%s%s\n", title, key, sep, m[key])
		} else {
			fmt.Fprintf(w, "\t%s%s%s\n", key, sep, m[key])
		}
	}
}

func describePod(w *tabwriter.Writer, p *api.Pod) {
	describeMeta(w, &p.ObjectMeta)
	if p.Spec.Priority != nil {
		fmt.Fprintf(w, "Priority:\t%d\n", *p.Spec.Priority)
	}
	fmt.Fprintf(w, "Service Account:\t%s\n", p.Spec.ServiceAccountName)
	node := "<none>"
	if p.Spec.NodeName != "" {
		node = p.Spec.NodeName + "/" + p.Status.HostIP
	}
	fmt.Fprintf(w, "Node:\t%s\n", node)
	status := string(p.Status.Phase)
	if p.DeletionTimestamp != nil {
		status = "Terminating"
	}
	fmt.Fprintf(w, "Status:\t%s\n", status)
	if p.Status.Reason != "" {
		fmt.Fprintf(w, "Reason:\t%s\n", p.Status.Reason)
	}
	if p.Status.Message != "" {
		fmt.Fprintf(w, "Message:\t%s\n", p.Status.Message)
	}
	fmt.Fprintf(w, "IP:\t%s\n", p.Status.PodIP)
	if ref := p.ControllerRef(); ref != nil {
		fmt.Fprintf(w, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	if len(p.Spec.InitContainers) > 0 {
		describeContainers(w, "Init Containers", p, p.Spec.InitContainers, p.Status.InitContainerStatuses)
	}
	describeContainers(w, "Containers", p, p.Spec.Containers, p.Status.ContainerStatuses)
	fmt.Fprintf(w, "Conditions:\n  Type\tStatus\n")
	for _, c := range p.Status.Conditions {
		fmt.Fprintf(w, "  %s\t%s\n", c.Type, c.Status)
	}
	describeVolumes(w, p.Spec.Volumes)
	fmt.Fprintf(w, "QoS Class:\t%s\n", p.Status.QOSClass)
	describeMap(w, "Node-Selectors", p.Spec.NodeSelector, "=")
	var tolerations []string
	for _, t := range p.Spec.Tolerations {
		s := t.Key
		if t.Effect != "" {
			s += ":" + string(t.Effect)
		}
		if t.Operator != "" {
			s += " op=" + string(t.Operator)
		}
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
		}
		tolerations = append(tolerations, s)
	}
	describeList(w, "Tolerations", tolerations)
}

// describeContainerState prints a container's State or Last State as kubectl does (describeStatus):
// Running and when it started; Waiting and why, if it says; Terminated with its reason and message
// when it has them, its exit code, its signal, and when it started and finished. A container with
// no state yet is Waiting.
func describeContainerState(w *tabwriter.Writer, title string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		fmt.Fprintf(w, "    %s:\tRunning\n      Started:\t%s\n", title, s.Running.StartedAt.Format(time.RFC1123Z))
	case s.Waiting != nil:
		fmt.Fprintf(w, "    %s:\tWaiting\n", title)
		if s.Waiting.Reason != "" {
			fmt.Fprintf(w, "      Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		t := s.Terminated
		fmt.Fprintf(w, "    %s:\tTerminated\n", title)
		if t.Reason != "" {
			fmt.Fprintf(w, "      Reason:\t%s\n", t.Reason)
		}
		if t.Message != "" {
			fmt.Fprintf(w, "      Message:\t%s\n", t.Message)
		}
		fmt.Fprintf(w, "      Exit Code:\t%d\n", t.ExitCode)
		if t.Signal > 0 {
			fmt.Fprintf(w, "      Signal:\t%d\n", t.Signal)
		}
		fmt.Fprintf(w, "      Started:\t%s\n      Finished:\t%s\n", t.StartedAt.Format(time.RFC1123Z), t.FinishedAt.Format(time.RFC1123Z))
	default:
		fmt.Fprintf(w, "    %s:\tWaiting\n", title)
	}
}

func (k *Kubectl) describeDeployment(ctx context.Context, w *tabwriter.Writer, d *api.Deployment) {
	describeMeta(w, &d.ObjectMeta)
	fmt.Fprintf(w, "Selector:\t%s\n", d.Spec.Selector.String())
	st := d.Status
	fmt.Fprintf(w, "Replicas:\t%s desired | %d updated | %d total | %d available | %d unavailable\n",
		replicasString(d.Spec.Replicas), st.UpdatedReplicas, st.Replicas, st.AvailableReplicas, st.UnavailableReplicas)
	fmt.Fprintf(w, "StrategyType:\t%s\n", d.Spec.Strategy.Type)
	fmt.Fprintf(w, "MinReadySeconds:\t%d\n", d.Spec.MinReadySeconds)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxUnavailable != nil && ru.MaxSurge != nil {
		fmt.Fprintf(w, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", ru.MaxUnavailable, ru.MaxSurge)
	}
	fmt.Fprintf(w, "Pod Template:\n")
	describeMap(w, "  Labels", d.Spec.Template.Labels, "=")
	fmt.Fprintf(w, "  Containers:\n")
	for _, c := range d.Spec.Template.Spec.Containers {
		fmt.Fprintf(w, "   %s:\n    Image:\t%s\n", c.Name, c.Image)
	}
	fmt.Fprintf(w, "Conditions:\n  Type\tStatus\tReason\n  ----\t------\t------\n")
	for _, c := range st.Conditions {
		fmt.Fprintf(w, "  %s\t%s\t%s\n", c.Type, c.Status, c.Reason)
	}
	// The ReplicaSet whose template is the Deployment's is the new one; the others are old. A
	// failed list leaves both lines out rather than failing the describe, as kubectl does.
	rss, err := k.replicaSetsOf(ctx, d)
	if err != nil {
		return
	}
	var old []string
	newRS := "<none>"
	for _, rs := range rss {
		line := fmt.Sprintf("%s (%d/%s replicas created)", rs.Name, rs.Status.Replicas, replicasString(rs.Spec.Replicas))
		template := rs.Spec.Template
		template.Labels = maps.Clone(template.Labels)
		delete(template.Labels, api.DefaultDeploymentUniqueLabelKey)
		if sameTemplate(&template, &d.Spec.Template) {
			newRS = line
		} else if rs.Spec.Replicas == nil || *rs.Spec.Replicas > 0 || rs.Status.Replicas > 0 {
			old = append(old, line)
		}
	}
	if len(old) == 0 {
		old = []string{"<none>"}
	}
	fmt.Fprintf(w, "OldReplicaSets:\t%s\n", strings.Join(old, ", "))
	fmt.Fprintf(w, "NewReplicaSet:\t%s\n", newRS)
}

func describeNode(w *tabwriter.Writer, n *api.Node) {
	describeMeta(w, &n.ObjectMeta)
	var taints []string
	for _, t := range n.Spec.Taints {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		taints = append(taints, s+":"+string(t.Effect))
	}
	describeList(w, "Taints", taints)
	fmt.Fprintf(w, "Unschedulable:\t%t\n", n.Spec.Unschedulable)
	fmt.Fprintf(w, "Conditions:\n  Type\tStatus\tReason\tMessage\n  ----\t------\t------\t-------\n")
	for _, c := range n.Status.Conditions {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.Type, c.Status, c.Reason, c.Message)
	}
	fmt.Fprintf(w, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		fmt.Fprintf(w, "  %s:\t%s\n", a.Type, a.Address)
	}
	fmt.Fprintf(w, "PodCIDR:\t%s\n", n.Spec.PodCIDR)
}

// section writes a section's title, with <none> beside it when it has no entries (n is how many),
// and reports whether there are entries to write under it.
func section(w *tabwriter.Writer, title string, n int) bool {
	if n == 0 {
		fmt.Fprintf(w, "%s:\t<none>\n", title)
		return false
	}
	fmt.Fprintf(w, "%s:\n", title)
	return true
}

// describeList writes a list one entry per line, or <none>.
func describeList(w *tabwriter.Writer, title string, items []string) {
	if len(items) == 0 {
		fmt.Fprintf(w, "%s:\t<none>\n", title)
		return
	}
	for i, s := range items {
		if i == 0 {
			fmt.Fprintf(w, "%s:\t%s\n", title, s)
		} else {
			fmt.Fprintf(w, "\t%s\n", s)
		}
	}
}

// capitalized is a bool as kubectl describe prints it: True or False.
func capitalized(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// describeContainers prints the Init Containers or Containers section as kubectl does
// (pkg/describe's describeContainers): each container's IDs, image, ports, command and arguments,
// state, readiness and restarts, resources, probes, environment and mounts.
func describeContainers(w *tabwriter.Writer, title string, p *api.Pod, specs []api.Container, statuses []api.ContainerStatus) {
	fmt.Fprintf(w, "%s:\n", title)
	for _, c := range specs {
		fmt.Fprintf(w, "  %s:\n", c.Name)
		i := slices.IndexFunc(statuses, func(s api.ContainerStatus) bool { return s.Name == c.Name })
		if i >= 0 {
			fmt.Fprintf(w, "    Container ID:\t%s\n", statuses[i].ContainerID)
		}
		fmt.Fprintf(w, "    Image:\t%s\n", c.Image)
		if i >= 0 {
			fmt.Fprintf(w, "    Image ID:\t%s\n", statuses[i].ImageID)
		}
		describePorts(w, c.Ports)
		describeStrings(w, "Command", c.Command)
		describeStrings(w, "Args", c.Args)
		if i >= 0 {
			s := statuses[i]
			describeContainerState(w, "State", s.State)
			if s.LastTerminationState.Terminated != nil {
				describeContainerState(w, "Last State", s.LastTerminationState)
			}
			fmt.Fprintf(w, "    Ready:\t%s\n", capitalized(s.Ready))
			fmt.Fprintf(w, "    Restart Count:\t%d\n", s.RestartCount)
		}
		describeResourceList(w, "Limits", c.Resources.Limits)
		describeResourceList(w, "Requests", c.Resources.Requests)
		for _, probe := range []struct {
			title string
			p     *api.Probe
		}{{"Liveness", c.LivenessProbe}, {"Readiness", c.ReadinessProbe}, {"Startup", c.StartupProbe}} {
			if probe.p != nil {
				fmt.Fprintf(w, "    %s:\t%s\n", probe.title, describeProbe(probe.p))
			}
		}
		describeContainerConfig(w, p, &c)
	}
}

// describePorts prints a container's Port and Host Port (Ports and Host Ports when it has several):
// 80/TCP, with the port's name after it in parentheses, <none> without any.
func describePorts(w *tabwriter.Writer, ports []api.ContainerPort) {
	var container, host []string
	for _, p := range ports {
		name := ""
		if p.Name != "" {
			name = " (" + p.Name + ")"
		}
		container = append(container, fmt.Sprintf("%d/%s%s", p.ContainerPort, p.Protocol, name))
		host = append(host, fmt.Sprintf("%d/%s%s", p.HostPort, p.Protocol, name))
	}
	for _, line := range []struct {
		title string
		list  []string
	}{{"Port", container}, {"Host Port", host}} {
		switch len(line.list) {
		case 0:
			fmt.Fprintf(w, "    %s:\t<none>\n", line.title)
		case 1:
			fmt.Fprintf(w, "    %s:\t%s\n", line.title, line.list[0])
		default:
			fmt.Fprintf(w, "    %ss:\t%s\n", line.title, strings.Join(line.list, ", "))
		}
	}
}

// describeStrings prints a container's Command or Args, one line of each word's lines a line.
func describeStrings(w *tabwriter.Writer, title string, words []string) {
	if len(words) == 0 {
		return
	}
	fmt.Fprintf(w, "    %s:\n", title)
	for _, word := range words {
		for _, line := range strings.Split(word, "\n") {
			fmt.Fprintf(w, "      %s\n", line)
		}
	}
}

// describeResourceList prints a container's Limits or Requests, by resource name.
func describeResourceList(w *tabwriter.Writer, title string, list resource.ResourceList) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(w, "    %s:\n", title)
	for _, name := range slices.Sorted(maps.Keys(list)) {
		q := list[name]
		fmt.Fprintf(w, "      %s:\t%s\n", name, q.String())
	}
}

// describeProbe is a probe as kubectl describe prints it (DescribeProbe): its action, then
// delay=0s timeout=1s period=10s #success=1 #failure=3. An HTTP probe reads as a URL, with its host
// (empty: the pod's IP): http-get http://:8080/healthz, http-get https://192.168.49.2:probe-port/livez.
func describeProbe(p *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d",
		p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	switch {
	case p.Exec != nil:
		return fmt.Sprintf("exec %v %s", p.Exec.Command, attrs)
	case p.HTTPGet != nil:
		u := url.URL{Scheme: strings.ToLower(string(p.HTTPGet.Scheme)), Path: p.HTTPGet.Path}
		if port := p.HTTPGet.Port.String(); port != "" {
			u.Host = net.JoinHostPort(p.HTTPGet.Host, port)
		} else {
			u.Host = p.HTTPGet.Host
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s %s", p.TCPSocket.Host, p.TCPSocket.Port.String(), attrs)
	}
	return "unknown " + attrs
}

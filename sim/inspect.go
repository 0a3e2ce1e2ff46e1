// inspect.go: what a paused run lets a learner look at, from the prompt of --step or a breakpoint.
// Every command reads quietly (it leaves no line in the story and changes nothing):
//
//	get KIND [NAME] [-n NS] [-o yaml]   kubectl get: a table, or the object as YAML
//	describe KIND NAME [-n NS]          kubectl describe, with the Events
//	logs POD [-n NS]                    the pod's containers' logs, from its node's runtime
//	etcd get KEY | etcd get --prefix P  the raw ledger: keys, their revisions, the stored JSON
//	queue                               the scheduler's activeQ, backoffQ and unschedulablePods
//	explain POD [-n NS]                 the scheduler's verdict on every node for a pending pod
//	cache [COMPONENT [RESOURCE]]        a component's informer cache beside etcd (inspect_cache.go)
//	crictl ps [-a] | pods | images | logs ID [--node NODE]   a node's runtime, as crictl shows it (inspect_node.go)
//	journalctl -u kubelet [-n N] [--node NODE]   a node's kubelet log, when the run keeps it (journal.go)
//	ls [-l] [-a] /var/lib/kubelet/pki | cat FILE | openssl x509 -in FILE -noout -dates ... [--node NODE]
//	                                    a node's kubelet certificates (inspect_pki.go)
//	date | timedatectl [--node NODE]    a node's clock and whether NTP keeps it (inspect_clock.go)
//
//	Cluster.Inspect(ctx, w, line)   runs one command; false when the line is none of them
//	Cluster.Ledger()                etcd, read-only
package sim

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/kubectl"
	"kubesim/store"
)

// KV is one key of the ledger as etcd returns it: its value and revisions.
type KV = store.KV

// Ledger is etcd as a paused run shows it: reads only.
type Ledger interface {
	Get(ctx context.Context, key string) (KV, error)
	List(ctx context.Context, prefix string, atRevision int64) ([]KV, int64, error)
	CurrentRevision(ctx context.Context) (int64, error)
}

// Ledger is the cluster's etcd, read-only.
func (c *Cluster) Ledger() Ledger { return c.Store }

// InspectCommands are the commands Inspect knows, for the prompt's help.
var InspectCommands = []string{
	"get KIND [NAME] [-n NS] [-o yaml]", "describe KIND NAME [-n NS]", "logs POD [-n NS]",
	"etcd get KEY | etcd get --prefix PREFIX", "queue", "explain POD [-n NS]", "cache [COMPONENT [RESOURCE]]",
	"crictl ps [-a] | pods | images | logs [--tail N] ID, with --node NODE", "journalctl -u kubelet [-n N] --node NODE",
	"ls [-l] [-a] /var/lib/kubelet/pki | cat FILE, with --node NODE",
	"openssl x509 -in FILE -noout [-dates] [-subject] [-issuer] [-serial] [-fingerprint] [-checkend N] --node NODE",
	"date | timedatectl, with --node NODE",
}

// Inspect runs one command of the prompt, writing its answer to w. It reports false when the line is
// not one of InspectCommands; an error is the command's (a pod that does not exist).
func (c *Cluster) Inspect(ctx context.Context, w io.Writer, line string) (bool, error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return false, nil
	}
	args, namespace, output := inspectFlags(words[1:])
	k := kubectl.New(kubectl.Config{Client: c.observer(), User: "system:kubesim", Clock: c.Clock})
	switch {
	case words[0] == "get" && len(args) >= 1:
		return true, c.inspectGet(ctx, w, args, namespace, output)
	case words[0] == "describe" && len(args) == 2:
		out, err := k.Describe(ctx, args[0], namespace, args[1])
		fmt.Fprint(w, out)
		return true, err
	case words[0] == "logs" && len(args) == 1:
		return true, c.inspectLogs(ctx, w, namespace, args[0])
	case words[0] == "etcd" && len(args) >= 2 && args[0] == "get":
		return true, c.inspectEtcd(ctx, w, args[1:])
	case words[0] == "queue" && len(args) == 0:
		return true, c.inspectQueue(ctx, w)
	case words[0] == "explain" && len(args) == 1:
		return true, c.inspectExplain(ctx, w, namespace, args[0])
	case words[0] == "cache" && len(args) <= 2:
		return true, c.inspectCache(ctx, w, args)
	case words[0] == "crictl":
		return true, c.inspectCrictl(ctx, w, words[1:])
	case words[0] == "journalctl":
		return true, c.inspectJournal(w, words[1:])
	case words[0] == "ls":
		return true, c.inspectLs(w, words[1:])
	case words[0] == "cat":
		return true, c.inspectCat(w, words[1:])
	case words[0] == "openssl":
		return true, c.inspectOpenssl(w, words[1:])
	case words[0] == "date":
		return true, c.inspectDate(w, words[1:])
	case words[0] == "timedatectl":
		return true, c.inspectTimedatectl(w, words[1:])
	}
	return false, nil
}

// inspectFlags takes -n NS and -o FORMAT out of args (namespace "default" unless said).
func inspectFlags(words []string) (args []string, namespace, output string) {
	namespace = "default"
	for i := 0; i < len(words); i++ {
		switch {
		case (words[i] == "-n" || words[i] == "--namespace") && i+1 < len(words):
			i++
			namespace = words[i]
		case words[i] == "-o" && i+1 < len(words):
			i++
			output = words[i]
		case strings.HasPrefix(words[i], "-o"):
			output = strings.TrimPrefix(words[i], "-o")
		default:
			args = append(args, words[i])
		}
	}
	return args, namespace, output
}

func (c *Cluster) inspectGet(ctx context.Context, w io.Writer, args []string, namespace, output string) error {
	kind, name, _ := strings.Cut(args[0], "/")
	if len(args) > 1 {
		name = args[1]
	}
	res, ok := api.ResourceFor(kind)
	if !ok {
		return fmt.Errorf("the server doesn't have a resource type %q", kind)
	}
	objs, err := c.Objects(ctx, res, namespace, "", name)
	if err != nil {
		return err
	}
	if len(objs) == 0 {
		if name != "" {
			return fmt.Errorf(`%s %q not found`, res.Name, name)
		}
		fmt.Fprintf(w, "No resources found in %s namespace.\n", namespace)
		return nil
	}
	if output == "yaml" {
		for i, o := range objs {
			b, err := api.EncodeYAML(o)
			if err != nil {
				return err
			}
			if i > 0 {
				fmt.Fprintln(w, "---")
			}
			w.Write(b)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	defer tw.Flush()
	for i, o := range objs {
		head, row := tableRow(o)
		if i == 0 {
			fmt.Fprintln(tw, strings.Join(head, "\t"))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return nil
}

// Table is kubectl get's table of a resource (pods, nodes, ...) in a namespace: its head and its rows,
// a cell a column (the web view shows it).
func (c *Cluster) Table(ctx context.Context, resource, namespace string) (head []string, rows [][]string, err error) {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return nil, nil, fmt.Errorf("the server doesn't have a resource type %q", resource)
	}
	objs, err := c.Objects(ctx, res, namespace, "", "")
	if err != nil {
		return nil, nil, err
	}
	head, _ = tableRow(res.New())
	for _, o := range objs {
		_, row := tableRow(o)
		rows = append(rows, row)
	}
	return head, rows, nil
}

// tableRow is an object's row of kubectl get's table, with the table's head.
func tableRow(o api.Object) (head, row []string) {
	name := o.GetObjectMeta().Name
	switch o := o.(type) {
	case *api.Pod:
		ready, restarts := 0, int32(0)
		for _, s := range o.Status.ContainerStatuses {
			if s.Ready {
				ready++
			}
			restarts += s.RestartCount
		}
		node := o.Spec.NodeName
		if node == "" {
			node = "<none>"
		}
		return []string{"NAME", "READY", "STATUS", "RESTARTS", "NODE", "RESOURCEVERSION"},
			[]string{name, fmt.Sprintf("%d/%d", ready, len(o.Spec.Containers)), api.PodStatusColumn(o), fmt.Sprint(restarts), node, o.ResourceVersion}
	case *api.Deployment:
		return []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "RESOURCEVERSION"},
			[]string{name, fmt.Sprintf("%d/%d", o.Status.ReadyReplicas, replicas(o.Spec.Replicas)), fmt.Sprint(o.Status.UpdatedReplicas), fmt.Sprint(o.Status.AvailableReplicas), o.ResourceVersion}
	case *api.ReplicaSet:
		return []string{"NAME", "DESIRED", "CURRENT", "READY", "RESOURCEVERSION"},
			[]string{name, fmt.Sprint(replicas(o.Spec.Replicas)), fmt.Sprint(o.Status.Replicas), fmt.Sprint(o.Status.ReadyReplicas), o.ResourceVersion}
	case *api.Node:
		status := "NotReady"
		for _, cond := range o.Status.Conditions {
			if cond.Type == "Ready" && cond.Status == "True" {
				status = "Ready"
			}
		}
		if o.Spec.Unschedulable {
			status += ",SchedulingDisabled"
		}
		return []string{"NAME", "STATUS", "RESOURCEVERSION"}, []string{name, status, o.ResourceVersion}
	case *api.PersistentVolumeClaim:
		size := o.Status.Capacity[resource.ResourceStorage]
		capacity := ""
		if o.Spec.VolumeName != "" {
			capacity = size.String()
		}
		return []string{"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS", "RESOURCEVERSION"}, []string{name, string(o.Status.Phase), o.Spec.VolumeName, capacity,
			api.AccessModesString(o.Status.AccessModes), api.ClaimClass(o), o.ResourceVersion}
	case *api.PersistentVolume:
		size, claim := o.Spec.Capacity[resource.ResourceStorage], ""
		if ref := o.Spec.ClaimRef; ref != nil {
			claim = ref.Namespace + "/" + ref.Name
		}
		return []string{"NAME", "CAPACITY", "ACCESS MODES", "STATUS", "CLAIM", "STORAGECLASS", "RESOURCEVERSION"}, []string{name, size.String(), api.AccessModesString(o.Spec.AccessModes),
			string(o.Status.Phase), claim, o.Spec.StorageClassName, o.ResourceVersion}
	}
	return []string{"NAME", "RESOURCEVERSION"}, []string{name, o.GetObjectMeta().ResourceVersion}
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func (c *Cluster) inspectLogs(ctx context.Context, w io.Writer, namespace, name string) error {
	pod, err := Get[api.Pod](ctx, c, namespace, name)
	if err != nil {
		return err
	}
	n, ok := c.Node(pod.Spec.NodeName)
	if !ok {
		return fmt.Errorf("pod %s/%s is not running on a node yet", namespace, name)
	}
	if len(pod.Status.ContainerStatuses) == 0 {
		return fmt.Errorf("pod %s/%s has no containers yet", namespace, name)
	}
	for _, s := range pod.Status.ContainerStatuses {
		_, id, _ := strings.Cut(s.ContainerID, "://")
		if id == "" {
			fmt.Fprintf(w, "container %q in pod %q is waiting to start\n", s.Name, name)
			continue
		}
		lines, err := n.Runtime.ContainerLogs(ctx, id, -1)
		if err != nil {
			return err
		}
		for _, l := range lines {
			fmt.Fprintf(w, "[%s] %s\n", s.Name, l.Log)
		}
	}
	return nil
}

func (c *Cluster) inspectEtcd(ctx context.Context, w io.Writer, args []string) error {
	l := c.Ledger()
	var kvs []store.KV
	switch {
	case args[0] == "--prefix" && len(args) == 2:
		list, _, err := l.List(ctx, args[1], 0)
		if err != nil {
			return err
		}
		kvs = list
	case len(args) == 1:
		kv, err := l.Get(ctx, args[0])
		if err != nil {
			return err
		}
		kvs = []store.KV{kv}
	default:
		return fmt.Errorf("etcd get KEY, or etcd get --prefix PREFIX")
	}
	rev, err := l.CurrentRevision(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "etcd revision %d, %d keys\n", rev, len(kvs))
	for _, kv := range kvs {
		fmt.Fprintf(w, "%s  (create_revision %d, mod_revision %d)\n%s\n", kv.Key, kv.CreateRevision, kv.ModRevision, kv.Value)
	}
	return nil
}

func (c *Cluster) inspectQueue(ctx context.Context, w io.Writer) error {
	pods, err := List[api.Pod](ctx, c, "", "", "")
	if err != nil {
		return err
	}
	for _, sname := range slices.Sorted(maps.Keys(c.schedulers)) {
		s := c.schedulers[sname].Scheduler
		queues := map[string][]string{}
		for _, p := range pods {
			if p.Spec.NodeName != "" {
				continue
			}
			if where := s.QueuePosition(p); where != "" {
				queues[where] = append(queues[where], p.Namespace+"/"+p.Name)
			}
		}
		fmt.Fprintf(w, "%s:\n", sname)
		for _, q := range []string{"activeQ", "backoffQ", "unschedulablePods", "in flight"} {
			fmt.Fprintf(w, "  %-18s %d  %s\n", q, len(queues[q]), strings.Join(queues[q], " "))
		}
	}
	return nil
}

func (c *Cluster) inspectExplain(ctx context.Context, w io.Writer, namespace, name string) error {
	pod, err := Get[api.Pod](ctx, c, namespace, name)
	if err != nil {
		return err
	}
	for _, sname := range slices.Sorted(maps.Keys(c.schedulers)) {
		ex, err := c.schedulers[sname].Scheduler.Explain(pod)
		if err != nil {
			continue // not this scheduler's pod
		}
		fmt.Fprint(w, ex.String())
		return nil
	}
	return fmt.Errorf("no scheduler serves pod %s/%s (schedulerName %q)", namespace, name, pod.Spec.SchedulerName)
}

// inspect_node.go: crictl at a paused run's prompt, what the articles do once kubectl describe has
// said what it can: "on the node, crictl ps -a shows the real containers" (article 1, 5.2 and 6.2).
// It asks the node's container runtime over CRI, as crictl asks containerd, and prints crictl's
// tables:
//
//	crictl ps [-a] [--node NODE]                 containers (running ones; -a: all)
//	crictl pods [--node NODE]                    pod sandboxes
//	crictl images [--node NODE]                  the images the node holds
//	crictl logs [--tail N] [--node NODE] ID      a container's log (ID or a unique prefix of it)
//
// On a real cluster crictl runs on the node itself; here --node names it (it may be left out on a
// one-node cluster). A look changes nothing and takes no cluster time, so a slow runtime answers at
// once, and a hung one gets the deadline crictl meets after its default timeout of 2 seconds (that a
// paused run does not wait for).
package sim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	fakeruntime "kubesim/runtime"
)

// crictlTimeout is crictl's default --timeout.
const crictlTimeout = 2 * time.Second

// crictlIDLen is how many characters of an ID crictl's tables show.
const crictlIDLen = 13

// inspectCrictl runs `crictl ARGS` on a node.
func (c *Cluster) inspectCrictl(ctx context.Context, w io.Writer, args []string) error {
	node, args := takeNodeFlag(args)
	var (
		sub  string
		all  bool
		tail = -1
		rest []string
	)
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-a" || a == "--all":
			all = true
		case a == "--tail" && i+1 < len(args), strings.HasPrefix(a, "--tail="):
			v := strings.TrimPrefix(a, "--tail=")
			if a == "--tail" {
				i++
				v = args[i]
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("crictl logs: --tail takes a number of lines, not %q", v)
			}
			tail = n
		case sub == "":
			sub = a
		default:
			rest = append(rest, a)
		}
	}
	n, err := c.nodeFor("crictl", node)
	if err != nil {
		return err
	}
	// A look takes no cluster time: a slow runtime answers at once, a hung one with crictl's deadline.
	ctx, cancel := context.WithTimeout(fakeruntime.Instant(ctx), crictlTimeout)
	defer cancel()
	now := c.Clock.Now()
	switch {
	case sub == "ps" && len(rest) == 0:
		return crictlPs(ctx, w, n.Runtime, all, now)
	case sub == "pods" && len(rest) == 0:
		return crictlPods(ctx, w, n.Runtime, now)
	case sub == "images" && len(rest) == 0:
		return crictlImages(ctx, w, n.Runtime)
	case sub == "logs" && len(rest) == 1:
		return crictlLogs(ctx, w, n.Runtime, rest[0], tail)
	}
	return errors.New("crictl: ps [-a], pods, images or logs [--tail N] CONTAINER-ID, with --node NODE")
}

// takeNodeFlag takes --node NODE (or --node=NODE), which names the node a node-side tool runs on,
// out of args.
func takeNodeFlag(args []string) (node string, rest []string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--node" && i+1 < len(args):
			i++
			node = args[i]
		case strings.HasPrefix(a, "--node="):
			node = strings.TrimPrefix(a, "--node=")
		default:
			rest = append(rest, a)
		}
	}
	return node, rest
}

// nodeFor is the node a node-side tool (crictl, journalctl) runs on: the one named, or the only one.
func (c *Cluster) nodeFor(tool, name string) (*Node, error) {
	names := c.NodeNames()
	if name == "" {
		if len(names) != 1 {
			return nil, fmt.Errorf("%s runs on a node: say which with --node NODE (%s)", tool, strings.Join(names, ", "))
		}
		name = names[0]
	}
	n, ok := c.Node(name)
	if !ok {
		return nil, fmt.Errorf("no node %q runs here (%s)", name, strings.Join(names, ", "))
	}
	return n, nil
}

// runtimeError words an error of the runtime as crictl reports it.
func runtimeError(what string, err error) error { return fmt.Errorf("%s: %w", what, err) }

func crictlPs(ctx context.Context, w io.Writer, rt *fakeruntime.Runtime, all bool, now time.Time) error {
	var filter *fakeruntime.ContainerFilter
	if !all {
		running := fakeruntime.ContainerRunning
		filter = &fakeruntime.ContainerFilter{State: &running}
	}
	containers, err := rt.ListContainers(ctx, filter)
	if err != nil {
		return runtimeError("listing containers", err)
	}
	sandboxes, err := rt.ListPodSandbox(ctx, nil)
	if err != nil {
		return runtimeError("listing pod sandboxes", err)
	}
	pods := map[string]fakeruntime.PodSandboxMetadata{}
	for _, s := range sandboxes {
		pods[s.ID] = s.Metadata
	}
	// crictl lists the newest first. (The runtime's lists are shared with its kubelet, whose relist
	// reads them at the same moment in real time: sort a copy.)
	containers = slices.Clone(containers)
	slices.SortStableFunc(containers, func(a, b *fakeruntime.Container) int { return b.CreatedAt.Compare(a.CreatedAt) })
	imageIDs := map[string]string{} // image name -> the ID crictl shows, asked once per image
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, "CONTAINER\tIMAGE\tCREATED\tSTATE\tNAME\tATTEMPT\tPOD ID\tPOD\tNAMESPACE")
	for _, ct := range containers {
		image, seen := imageIDs[ct.Image]
		if !seen {
			image = ct.Image
			if img, err := rt.ImageStatus(ctx, ct.Image); err == nil && img != nil {
				image = truncateID(strings.TrimPrefix(img.ID, "sha256:"))
			}
			imageIDs[ct.Image] = image
		}
		pod := pods[ct.PodSandboxID]
		fmt.Fprintf(tw, "%s\t%s\t%s ago\t%s\t%s\t%d\t%s\t%s\t%s\n", truncateID(ct.ID), image, humanDuration(now.Sub(ct.CreatedAt)),
			containerState(ct.State), ct.Metadata.Name, ct.Metadata.Attempt, truncateID(ct.PodSandboxID), pod.Name, pod.Namespace)
	}
	return tw.Flush()
}

func crictlPods(ctx context.Context, w io.Writer, rt *fakeruntime.Runtime, now time.Time) error {
	sandboxes, err := rt.ListPodSandbox(ctx, nil)
	if err != nil {
		return runtimeError("listing pod sandboxes", err)
	}
	sandboxes = slices.Clone(sandboxes) // shared with the kubelet: sort a copy
	slices.SortStableFunc(sandboxes, func(a, b *fakeruntime.PodSandbox) int { return b.CreatedAt.Compare(a.CreatedAt) })
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, "POD ID\tCREATED\tSTATE\tNAME\tNAMESPACE\tATTEMPT\tRUNTIME")
	for _, s := range sandboxes {
		state := "Ready"
		if s.State != fakeruntime.SandboxReady {
			state = "NotReady"
		}
		fmt.Fprintf(tw, "%s\t%s ago\t%s\t%s\t%s\t%d\t(default)\n", truncateID(s.ID), humanDuration(now.Sub(s.CreatedAt)), state,
			s.Metadata.Name, s.Metadata.Namespace, s.Metadata.Attempt)
	}
	return tw.Flush()
}

func crictlImages(ctx context.Context, w io.Writer, rt *fakeruntime.Runtime) error {
	images, err := rt.ListImages(ctx)
	if err != nil {
		return runtimeError("listing images", err)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, "IMAGE\tTAG\tIMAGE ID\tSIZE")
	for _, img := range images {
		id := truncateID(strings.TrimPrefix(img.ID, "sha256:"))
		tags := img.RepoTags
		if len(tags) == 0 {
			tags = []string{"<none>:<none>"}
		}
		for _, t := range tags {
			i := strings.LastIndex(t, ":")
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t[:i], t[i+1:], id, humanSize(img.Size))
		}
	}
	return tw.Flush()
}

func crictlLogs(ctx context.Context, w io.Writer, rt *fakeruntime.Runtime, id string, tail int) error {
	all, err := rt.ListContainers(ctx, nil)
	if err != nil {
		return runtimeError("listing containers", err)
	}
	var match []string
	for _, ct := range all {
		if strings.HasPrefix(ct.ID, id) {
			match = append(match, ct.ID)
		}
	}
	switch {
	case id == "" || len(match) == 0:
		return fmt.Errorf(`rpc error: code = NotFound desc = an error occurred when try to find container %q: not found`, id)
	case len(match) > 1:
		return fmt.Errorf("container ID %q is ambiguous: %d containers start with it", id, len(match))
	}
	lines, err := rt.ContainerLogs(ctx, match[0], tail)
	if err != nil {
		return runtimeError("reading the log of container "+truncateID(match[0]), err)
	}
	for _, l := range lines {
		fmt.Fprintln(w, l.Log)
	}
	return nil
}

// containerState is a CRI state as crictl words it.
func containerState(s fakeruntime.ContainerState) string {
	switch s {
	case fakeruntime.ContainerCreated:
		return "Created"
	case fakeruntime.ContainerRunning:
		return "Running"
	case fakeruntime.ContainerExited:
		return "Exited"
	}
	return "Unknown"
}

func truncateID(id string) string {
	if len(id) > crictlIDLen {
		return id[:crictlIDLen]
	}
	return id
}

// humanDuration is how long ago, as crictl (docker's go-units) words it: "Less than a second", "1
// second", "About a minute", "5 minutes", "About an hour", "3 hours", "2 days".
func humanDuration(d time.Duration) string {
	seconds, minutes, hours := int(d.Seconds()), int(d.Minutes()), int(d.Hours()+0.5)
	switch {
	case seconds < 1:
		return "Less than a second"
	case seconds == 1:
		return "1 second"
	case seconds < 60:
		return fmt.Sprintf("%d seconds", seconds)
	case minutes == 1:
		return "About a minute"
	case minutes < 60:
		return fmt.Sprintf("%d minutes", minutes)
	case hours == 1:
		return "About an hour"
	case hours < 48:
		return fmt.Sprintf("%d hours", hours)
	case hours < 24*7*2:
		return fmt.Sprintf("%d days", hours/24)
	case hours < 24*30*2:
		return fmt.Sprintf("%d weeks", hours/24/7)
	case hours < 24*365*2:
		return fmt.Sprintf("%d months", hours/24/30)
	}
	return fmt.Sprintf("%d years", int(d.Hours())/24/365)
}

// humanSize is an image's size as crictl prints it (decimal units, three significant digits: 72.1MB).
func humanSize(b uint64) string {
	units := []string{"B", "kB", "MB", "GB", "TB"}
	f, i := float64(b), 0
	for f >= 1000 && i < len(units)-1 {
		f /= 1000
		i++
	}
	return strconv.FormatFloat(f, 'g', 3, 64) + units[i]
}

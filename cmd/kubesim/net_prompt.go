// net_prompt.go: `kubesim net` at the prompt of a paused run: the network as it stands at the pause,
// without running the cluster any further.
//
//	net trace FROM TO[:PORT]   the walk from pod FROM to TO, hop by hop (TO a Service: its first port)
//	net rules NODE             kube-proxy's rules on NODE, as iptables-save prints them
//
// What a trace sees is what the components have done so far: a Service created a step ago may have
// no EndpointSlice yet, and a node's kube-proxy may not have synced its rules.
package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"kubesim/api"
	"kubesim/sim"
)

// netPromptCommands are the prompt's net commands, for its help.
var netPromptCommands = []string{"net trace FROM TO[:PORT]", "net rules NODE"}

// netAtPrompt runs one `net ...` line of the prompt (args is what follows "net").
func netAtPrompt(ctx context.Context, w io.Writer, c *sim.Cluster, args string) {
	words := strings.Fields(args)
	switch {
	case len(words) == 2 && words[0] == "rules":
		rules, ok := c.ProxyRules(words[1])
		if !ok {
			fmt.Fprintf(w, "net rules: no node %q (nodes: %s)\n", words[1], strings.Join(c.NodeNames(), ", "))
			return
		}
		fmt.Fprint(w, rules.IptablesSave())
	case len(words) == 3 && words[0] == "trace":
		to, err := withPort(ctx, c, words[1], words[2])
		if err != nil {
			fmt.Fprintf(w, "net trace: %v\n", err)
			return
		}
		r, err := c.NetTrace(ctx, words[1], to)
		if err != nil {
			fmt.Fprintf(w, "net trace: %v\n", err)
			return
		}
		fmt.Fprint(w, r.String())
	default:
		fmt.Fprintf(w, "usage: %s\n", strings.Join(netPromptCommands, " | "))
	}
}

// withPort is to as NAME:PORT: as given, or, when to names a Service without a port ("web",
// "web.shop"), with that Service's first port, as a learner would read it from kubectl get svc.
func withPort(ctx context.Context, c *sim.Cluster, from, to string) (string, error) {
	if strings.Contains(to, ":") {
		return to, nil
	}
	namespace := "default"
	if ns, _, ok := strings.Cut(from, "/"); ok {
		namespace = ns
	}
	name, rest, _ := strings.Cut(to, ".")
	if ns, _, _ := strings.Cut(rest, "."); ns != "" && ns != "svc" {
		namespace = ns
	}
	svc, err := sim.Get[api.Service](ctx, c, namespace, name)
	if err != nil || len(svc.Spec.Ports) == 0 {
		return "", fmt.Errorf("%q names no Service with a port in namespace %s: write NAME:PORT", to, namespace)
	}
	return fmt.Sprintf("%s:%d", to, svc.Spec.Ports[0].Port), nil
}

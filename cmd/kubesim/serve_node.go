// serve_node.go: the node-side commands of the serve terminal. On a real cluster a learner whose
// kubectl describe has said what it can logs in to the node and runs crictl and journalctl, and
// checks the kubelet's certificates (article 1, 5.2, 5.3 and 7.4); here the serve terminal stands
// for that shell:
//
//	crictl ps [-a] | pods | images | logs [--tail N] ID --node NODE   the node's runtime
//	journalctl -u kubelet [-n N] --node NODE                          the node's kubelet lines
//	ls -l /var/lib/kubelet/pki --node NODE                            the kubelet's certificates
//	cat FILE --node NODE                                              one of them, PEM
//	openssl x509 -in FILE -noout -dates ... --node NODE               one of them, as openssl reads it
//	date | timedatectl --node NODE                                    the node's clock, and NTP
//
// kubectl, in another terminal, does the rest. serve keeps each kubelet's last lines for journalctl
// (sim.PromptJournalLines), in real time as in step mode.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"kubesim/sim"
)

// nodeHelp is what the serve terminal of a real-time cluster accepts.
const nodeHelp = `This terminal is a shell on the nodes: crictl ps [-a] | pods | images | logs ID --node NODE;
journalctl -u kubelet [-n N] --node NODE; ls -l /var/lib/kubelet/pki --node NODE; cat FILE --node NODE;
openssl x509 -in FILE -noout -dates [-subject] [-issuer] [-checkend N] --node NODE;
date | timedatectl --node NODE. kubectl, in another terminal, does the rest.`

// nodeTools are the commands of a shell on a node, which sim.Cluster.Inspect runs.
var nodeTools = []string{"crictl", "journalctl", "ls", "cat", "openssl", "date", "timedatectl"}

// isNodeCommand reports whether line is a command of a shell on a node (crictl, journalctl, ls, cat,
// openssl, date, timedatectl) rather than one about the cluster: its errors are the tool's own,
// not the apiserver's.
func isNodeCommand(line string) bool {
	tool, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return slices.Contains(nodeTools, tool)
}

// nodeCommand runs line when it is a node-side command, writing its answer or error to out; false
// when it is not one.
func nodeCommand(ctx context.Context, c *sim.Cluster, out io.Writer, line string) bool {
	if !isNodeCommand(line) {
		return false
	}
	if _, err := c.Inspect(ctx, out, line); err != nil {
		fmt.Fprintln(out, err)
	}
	return true
}

// nodeConsole reads the serve terminal of a real-time cluster until in ends or ctx does.
func nodeConsole(ctx context.Context, c *sim.Cluster, in io.Reader, out io.Writer) {
	lines := bufio.NewScanner(in)
	for lines.Scan() && ctx.Err() == nil {
		if strings.TrimSpace(lines.Text()) == "" || nodeCommand(ctx, c, out, lines.Text()) {
			continue
		}
		fmt.Fprintln(out, nodeHelp)
	}
}

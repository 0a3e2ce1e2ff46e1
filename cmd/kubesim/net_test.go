package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// netExample is the README's networking example: one app, four Services in front of it (one that
// works, three broken), and a client.
const netExample = "../../examples/networking/app.yaml"

func TestNetTraceSaysWhereAndWhyItFails(t *testing.T) {
	code, out, stderr := kubesim("net", "trace", "-f", netExample, "--from", "client", "--to", "web-typo:80")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "✗ rules")
	assert.Contains(t, out, "Service default/web-typo has no endpoints: the selector app=webapp matches no pod in namespace default; its pods are labelled api (app=api), web-")
	assert.Contains(t, out, "(app=web,pod-template-hash=")
	assert.Contains(t, out, "unreachable: stopped at hop 4 (rules)")

	code, out, stderr = kubesim("net", "rules", "-f", netExample, "--node", "node-2")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"default/web-typo has no endpoints"`)
	assert.Contains(t, out, "-j REJECT")

	code, _, stderr = kubesim("net", "trace", "--from", "client")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "usage:")
}

// At a pause, `net trace` and `net rules` show the network as it stands: the prompt's until waits
// for the trace's verdict, then the trace stops at the node's REJECT rule and says why; a Service
// named without a port is traced on its first port.
func TestNetCommandsAtThePrompt(t *testing.T) {
	code, out, errOut := runWith(t, strings.Join([]string{
		"until trace client web:80 unreachable at rules", "net trace client web", "net rules node-1",
		"net trace client nosuch", "net rules node-9", "net", "help", "q",
	}, "\n"), "run", "service-no-endpoints", "--step")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "trace client web:80 unreachable at rules holds.")
	assert.Contains(t, out, "trace client -> web:80\n")
	assert.Regexp(t, `4\. ✗ rules +node-\d: filter KUBE-SERVICES -d [\d.]+/32 --dport 80 -j REJECT`, out)
	assert.Contains(t, out, "Service default/web has no endpoints: the selector app=web matches no pod in namespace default")
	assert.Contains(t, out, "# kube-proxy rules on node-1 (iptables mode), as iptables-save prints them")
	assert.Contains(t, out, `--comment "default/web:http has no endpoints" -m tcp --dport 80 -j REJECT`)
	assert.Contains(t, out, `net trace: "nosuch" names no Service with a port in namespace default: write NAME:PORT`)
	assert.Contains(t, out, `net rules: no node "node-9" (nodes: node-1, node-2, node-3)`)
	assert.Contains(t, out, "usage: net trace FROM TO[:PORT] | net rules NODE")
	assert.Contains(t, out, "  net trace FROM TO[:PORT]\n", "help lists the net commands")
}

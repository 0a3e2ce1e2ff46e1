package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
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

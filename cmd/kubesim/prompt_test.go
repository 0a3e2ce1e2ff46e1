package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runWith plays kubesim with stdin fed from lines, as a pipe does.
func runWith(t *testing.T, input string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(input), &out, &errOut)
	return code, out.String(), errOut.String()
}

// At the pause before the first bind, the prompt shows the cluster as it stands: three Pending pods
// with no node, the pod's description with its Events, the scheduler's queues, the raw etcd key.
// The bind has not happened: the breakpoint comes before the action (issue 12).
func TestPromptAtTheBreakpointBeforeTheFirstBind(t *testing.T) {
	const pod = "nginx-685df88ff7-hjlnt" // seed 1
	code, out, errOut := runWith(t, strings.Join([]string{
		"get pods", "describe pod " + pod, "queue", "etcd get /registry/pods/default/" + pod, "help", "q",
	}, "\n"), "run", "create-deployment", "--break", "scheduler bind")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "breakpoint scheduler bind: kube-scheduler is about to create pods/binding default/"+pod)
	// get pods: 3 Pending, none on a node.
	assert.Len(t, regexp.MustCompile(`(?m)^nginx-685df88ff7-\w+ +0/1 +Pending +0 +<none> `).FindAllString(out, -1), 3, out)
	assert.NotRegexp(t, `bind default/\S+ -> node`, out, "nothing was bound before the pause")
	// describe: kubectl's describe, with Events.
	assert.Contains(t, out, "Name:               "+pod)
	assert.Contains(t, out, "Events:")
	// queue: the pod being bound is in flight, the others wait in activeQ.
	assert.Regexp(t, `activeQ +2 +default/nginx-685df88ff7-\w+ default/nginx-685df88ff7-\w+`, out)
	assert.Regexp(t, `in flight +1 +default/`+pod, out)
	// etcd get: the key, its revisions, the stored object without a nodeName.
	assert.Regexp(t, `/registry/pods/default/`+pod+` +\(create_revision \d+, mod_revision \d+\)`, out)
	assert.NotContains(t, out, `"nodeName"`)
	assert.Contains(t, out, "explain POD")
	assert.Contains(t, out, "stopped at the prompt")
}

// Each breakpoint pauses before its action; continue runs to the next one, and the run ends well.
func TestBreakpointsPauseBeforeTheirActions(t *testing.T) {
	for _, tc := range []struct{ spec, says string }{
		{"apiserver admit", "kubectl is about to create deployments default/nginx"},
		{"etcd put /registry/pods", "is about to create pods default/"},
		{"kubelet StartContainer node-2", "kubelet/node-2 is about to StartContainer"},
	} {
		code, out, errOut := runWith(t, "get pods\nq\n", "run", "create-deployment", "--break", tc.spec)
		require.Equal(t, 0, code, errOut+out)
		assert.Contains(t, out, "breakpoint "+tc.spec+": ", tc.spec)
		assert.Contains(t, out, tc.says, tc.spec)
	}
	code, out, errOut := runWith(t, "continue\ncontinue\ncontinue\n", "run", "create-deployment", "--break", "scheduler bind")
	require.Equal(t, 0, code, errOut+out)
	assert.Equal(t, 3, strings.Count(out, "breakpoint scheduler bind:"), out)
	assert.Contains(t, out, "every expected sign was seen")

	code, _, errOut = runWith(t, "", "run", "create-deployment", "--break", "scheduler sleep")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "scheduler bind")
}

// --step pauses only where the story told something new; next N and until COND run on.
func TestStepPromptSkipsQuietPausesAndRunsOn(t *testing.T) {
	code, out, errOut := runWith(t, "next 2\nuntil pods bound\nget pods\nq\n", "run", "create-deployment", "--step")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "pods bound holds.")
	assert.Regexp(t, `(?m)^nginx-685df88ff7-\w+ +0/1 +\w+ +0 +node-\d`, out)
	assert.Less(t, strings.Count(errOut, "(kubesim)"), 10, "quiet pauses are skipped")
}

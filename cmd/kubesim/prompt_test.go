package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"kubesim/internal/testenv/syncbuf"

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

// runAnswering plays kubesim and, at its first prompt, types what answer makes of the story so far
// (so a test can name the pods the seed generated), then ends the input.
func runAnswering(t *testing.T, answer func(story string) string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	in, typed := io.Pipe()
	out, errOut := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	done := make(chan int)
	go func() { done <- run(context.Background(), args, in, out, errOut) }()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(errOut.String(), "(kubesim)"); {
		require.True(t, time.Now().Before(deadline), "no prompt within a minute (a hang guard):\n%s", out.String())
		time.Sleep(5 * time.Millisecond)
	}
	io.WriteString(typed, answer(out.String()))
	typed.Close()
	code = <-done
	return code, out.String(), errOut.String()
}

// The pod a breakpoint before a bind is about to bind.
var aboutToBind = regexp.MustCompile(`about to create pods/binding default/(\S+)`)

// At the pause before the first bind, the prompt shows the cluster as it stands: three Pending pods
// with no node, the pod's description with its Events, the scheduler's queues, the raw etcd key.
// The bind has not happened: the breakpoint comes before the action (issue 12).
func TestPromptAtTheBreakpointBeforeTheFirstBind(t *testing.T) {
	var pod string
	code, out, errOut := runAnswering(t, func(story string) string {
		m := aboutToBind.FindStringSubmatch(story)
		require.NotNil(t, m, story)
		pod = m[1]
		return strings.Join([]string{"get pods", "describe pod " + pod, "queue", "etcd get /registry/pods/default/" + pod, "help", "q"}, "\n")
	}, "run", "create-deployment", "--break", "scheduler bind")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "breakpoint scheduler bind: kube-scheduler is about to create pods/binding default/"+pod)
	// get pods: 3 Pending, none on a node.
	assert.Len(t, regexp.MustCompile(`(?m)^nginx-77bf8679f9-\w+ +0/1 +Pending +0 +<none> `).FindAllString(out, -1), 3, out)
	assert.NotRegexp(t, `bind default/\S+ -> node`, out, "nothing was bound before the pause")
	// describe: kubectl's describe, with Events.
	assert.Contains(t, out, "Name:               "+pod)
	assert.Contains(t, out, "Events:")
	// queue: the pod being bound is in flight, the others wait in activeQ.
	assert.Regexp(t, `activeQ +2 +default/nginx-77bf8679f9-\w+ default/nginx-77bf8679f9-\w+`, out)
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
	assert.Regexp(t, `(?m)^nginx-77bf8679f9-\w+ +0/1 +\w+ +0 +node-\d`, out)
	assert.Less(t, strings.Count(errOut, "(kubesim)"), 10, "quiet pauses are skipped")
}

// section runs to the next heading of the story: each pause it makes comes with the heading it ran to.
func TestPromptSectionRunsToTheNextHeading(t *testing.T) {
	var out bytes.Buffer // story and prompt on one stream, as a terminal shows them
	code := run(context.Background(), []string{"run", "create-deployment", "--step"},
		strings.NewReader("section\nsection\nsection\nq\n"), &out, &out)
	require.Equal(t, 0, code, out.String())
	parts := strings.Split(out.String(), "(kubesim) ")
	require.Len(t, parts, 5, out.String())
	headings := []string{
		"── 2. The control plane and the kubelets take it from here",
		"▸ the ReplicaSet controller",
		"▸ the scheduler",
		"▸ the kubelet and the runtime",
	}
	for i := range 3 {
		told := parts[i+1]
		assert.Contains(t, told, headings[i], "section %d", i+1)
		assert.NotContains(t, told, headings[i+1], "section %d ran past its heading", i+1)
	}
}

// cache shows what a component's informer holds beside etcd: at the ReplicaSet controller's second pod
// create, the first pod is in etcd but not yet in the scheduler's cache; right after the last bind,
// the scheduler's cache has every pod but has not yet seen its own last write.
func TestPromptCacheShowsTheSchedulersViewBesideEtcd(t *testing.T) {
	code, out, errOut := runWith(t, "continue\ncache scheduler pods\ncache\nq\n",
		"run", "create-deployment", "--break", "etcd put /registry/pods")
	require.Equal(t, 0, code, errOut+out)
	assert.Regexp(t, `kube-scheduler pods informer: 0 objects, resourceVersion \d+ \(etcd is at revision \d+\)`, out)
	assert.Len(t, regexp.MustCompile(`default/nginx-77bf8679f9-\w+ +- +\d+ +not in the cache yet`).FindAllString(out, -1), 1, out)
	assert.Regexp(t, `(?m)^  kube-scheduler/scheduling +pods \d+ \(0\), nodes \d+ \(3\)`, out)

	code, out, errOut = runWith(t, "until pods bound\ncache kube-scheduler/scheduling pods\ncache kubelet/node-3 pods\ncache node-3 pods\ncache scheduler leases\nq\n",
		"run", "create-deployment", "--step")
	require.Equal(t, 0, code, errOut+out)
	assert.Contains(t, out, "kube-scheduler pods informer: 3 objects")
	rows := regexp.MustCompile(`(?m)^default/nginx-77bf8679f9-\w+ +(\d+) +(\d+) +(.*)$`).FindAllStringSubmatch(out, -1)
	require.Len(t, rows, 4, "three pods in the scheduler's cache, one in node-3's:\n%s", out)
	behind := 0
	for _, r := range rows {
		if r[1] != r[2] {
			behind++
			assert.Equal(t, "the cache is behind", r[3])
		}
	}
	assert.Equal(t, 1, behind, "the last bind is the one write the scheduler's cache has not seen")
	assert.NotContains(t, out, "not in the cache yet")
	assert.Contains(t, out, "it watches only spec.nodeName=node-3")
	assert.Contains(t, out, `"node-3" names 2 components: kube-proxy/node-3, kubelet/node-3`)
	assert.Contains(t, out, "kube-scheduler/scheduling has no informer for leases")
}

// crictl at the pause before a container starts, on its node: the sandbox is Ready, the container
// Created (crictl ps lists only running ones, ps -a all), the node holds the image and the pause
// image; without --node, crictl asks which node. Once the pods run the container runs, and crictl
// logs reads it by a prefix of its ID.
func TestPromptCrictlShowsTheNodesRuntime(t *testing.T) {
	var id string
	code, out, errOut := runAnswering(t, func(story string) string {
		m := regexp.MustCompile(`about to StartContainer ([0-9a-f]{64})`).FindStringSubmatch(story)
		require.NotNil(t, m, story)
		id = m[1]
		return strings.Join([]string{"crictl ps -a --node node-2", "crictl ps --node node-2", "crictl pods --node node-2",
			"crictl images --node node-2", "crictl ps", "crictl logs --node node-2 ffff", "until pods running", "crictl ps --node node-2",
			"crictl logs --tail 1 --node node-2 " + id[:6], "q"}, "\n") + "\n"
	}, "run", "create-deployment", "--break", "kubelet StartContainer node-2")
	require.Equal(t, 0, code, errOut+out)
	created := regexp.MustCompile(`(?m)^` + id[:13] + ` +[0-9a-f]{13} +(Less than a second|\d+ seconds?) ago +Created +nginx +0 +([0-9a-f]{13}) +(nginx-77bf8679f9-\w+) +default$`).
		FindStringSubmatch(out)
	require.NotNil(t, created, "crictl ps -a: the container created, not started:\n%s", out)
	assert.Regexp(t, `(?m)^CONTAINER +IMAGE +CREATED +STATE +NAME +ATTEMPT +POD ID +POD +NAMESPACE\nPOD ID`, out,
		"crictl ps: nothing runs yet on node-2 (the next answer is crictl pods')")
	assert.Regexp(t, `(?m)^`+created[2]+` +\S.* ago +Ready +`+created[3]+` +default +0 +\(default\)$`, out, "crictl pods: its sandbox")
	assert.Regexp(t, `(?m)^docker.io/library/nginx +1.25 +[0-9a-f]{13} +[\d.]+MB$`, out, "crictl images")
	assert.Regexp(t, `(?m)^registry.k8s.io/pause +3.10 `, out)
	assert.Contains(t, out, "crictl runs on a node: say which with --node NODE (node-1, node-2, node-3)")
	assert.Contains(t, out, `rpc error: code = NotFound desc = an error occurred when try to find container "ffff": not found`)
	assert.Regexp(t, `(?m)^`+id[:13]+` +[0-9a-f]{13} +.* ago +Running +nginx +0 +`+created[2]+` `, out, "once the pods run, crictl ps shows it running")
	assert.Regexp(t, `(?m)^\S+ \S+ \[notice\] 1#1: start worker processes$`, out, "crictl logs --tail 1: the log's last line")
}

// crictl on a node whose containerd hangs meets crictl's deadline (at once: a paused run does not wait
// out crictl's timeout; runtime's TestInstantCallsTakeNoClusterTime checks that no clock moves), and
// journalctl -u kubelet shows the kubelet's own account.
func TestPromptCrictlOnAHungRuntime(t *testing.T) {
	code, out, errOut := runWith(t, "until node node-2 notready\ncrictl ps --node node-2\ncrictl ps --node node-1\n"+
		"journalctl -u kubelet -f -n 3 --node node-2\njournalctl -u kubelet\nq\n", "run", "runtime-hung", "--step")
	require.Equal(t, 0, code, errOut+out)
	// journalctl -u kubelet: the node's kubelet said why it went NotReady.
	journal := regexp.MustCompile(`(?m)^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} node-2 kubelet: .*$`).FindAllString(out, -1)
	assert.Len(t, journal, 3, "-n 3: the last three lines\n%s", out)
	assert.Regexp(t, `node-2 kubelet: node status: Ready=False`, strings.Join(journal, "\n"))
	assert.Contains(t, out, "journalctl runs on a node: say which with --node NODE (node-1, node-2, node-3)")
	assert.Contains(t, out, "listing containers: rpc error: code = DeadlineExceeded desc = context deadline exceeded")
	assert.Regexp(t, `(?m)^[0-9a-f]{13} +[0-9a-f]{13} +.* ago +Running +nginx +0 `, out, "the other nodes' runtimes answer")
}

// openssl on the node whose client certificate expired says so, as the apiserver's 401s do; the
// other nodes' certificates have a year left. ls shows the kubelet's files.
func TestPromptOpensslReadsTheExpiredKubeletCertificate(t *testing.T) {
	const current = "/var/lib/kubelet/pki/kubelet-client-current.pem"
	code, out, errOut := runWith(t, "until node node-2 unknown\n"+
		"openssl x509 -in "+current+" -noout -checkend 0 --node node-2\n"+
		"openssl x509 -in "+current+" -noout -checkend 86400 --node node-1\n"+
		"ls -l /var/lib/kubelet/pki --node node-2\nq\n", "run", "kubelet-cert-expired", "--step")
	require.Equal(t, 0, code, errOut+out)
	assert.Regexp(t, `(?s)Certificate will expire\n.*Certificate will not expire\n`, out)
	assert.Regexp(t, `(?m)^lrwxrwxrwx 1 root root +59 .* kubelet-client-current\.pem -> /var/lib/kubelet/pki/kubelet-client-\S+\.pem$`, out)
}

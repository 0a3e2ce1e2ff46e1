package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// kubesim step against the served cluster: what it printed, and its exit status.
func (s *served) step(args ...string) (string, int) {
	s.t.Helper()
	var out bytes.Buffer
	code := step(context.Background(), append([]string{"--kubeconfig", s.kubeconfig}, args...), &out, &out)
	return out.String(), code
}

// serve --step: the cluster stands still between steps, kubectl's requests are served meanwhile, and
// kubectl sees the exact state: a Deployment without its ReplicaSet until kubesim step runs the
// deployment controller.
func TestServeStepShowsTheStateBetweenSteps(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl, beside the others that do
	terminal, typed := io.Pipe()
	s := startServe(t, serveOptions{nodes: 2, port: freePort(t), step: true, stdin: terminal})
	defer typed.Close()
	s.expect(a("get nodes"), `node-1 Ready`, `node-2 Ready`)
	s.expect(a("create deployment nginx --image=nginx:1.25"), `^deployment.apps/nginx created`)
	s.expect(a("get deployments"), `nginx 0/1 0 0 `)
	s.expect(a("get replicasets"), `^No resources found in default namespace.`)

	out, code := s.step("--until", "replicasets -l app=nginx count 1")
	if code != 0 || !strings.Contains(out, "holds, after") {
		t.Fatalf("kubesim step --until: %d %s", code, out)
	}
	s.expect(a("get replicasets"), `nginx-[a-z0-9]+ 1 0 0 `)
	// The story in the serve terminal: kubectl's request, then the controller's step.
	if story := s.told.String(); !regexp.MustCompile(`(?s)kubectl +request: POST deployments.apps default/nginx -> 201\n.*deployment-controller +reconcile default/nginx`).MatchString(story) {
		t.Errorf("the serve terminal's story:\n%s\nwant kubectl's POST, then the deployment controller's reconcile", story)
	}
	// The ReplicaSet wants a pod it has not created: the next steps have not run.
	s.expect(a("get pods"), `^No resources found in default namespace.`)

	out, code = s.step("--until", "deployment nginx available")
	if code != 0 || !regexp.MustCompile(`holds, after \d+ step\(s\)`).MatchString(out) {
		t.Fatalf("kubesim step --until: %d %s", code, out)
	}
	s.expect(a("get deployments"), `nginx 1/1 1 1 `)
	s.expect(a("get pods -o wide"), `nginx-[a-z0-9]+-[a-z0-9]+ 1/1 Running 0 `)

	// Enter in the serve terminal runs one step; next N, N.
	for _, line := range []string{"\n", "next 2\n", "bogus\n", "crictl ps -a --node node-1\n", "crictl ps -a --node node-2\n"} {
		io.WriteString(typed, line)
	}
	deadline := time.Now().Add(10 * time.Second)
	// bogus is answered with the help, printed once already when serve paused.
	for strings.Count(s.told.String(), "Enter or next: run one step") < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the serve terminal after Enter, next 2 and bogus:\n%s", s.told.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if told := s.told.String(); !regexp.MustCompile(`(?s)ran 1 step\(s\); cluster time.*ran 2 step\(s\); cluster time`).MatchString(told) {
		t.Errorf("the serve terminal after Enter and next 2:\n%s", told)
	}
	// crictl in the serve terminal: the nodes' runtimes, one of which runs the Deployment's pod.
	for deadline := time.Now().Add(10 * time.Second); !regexp.MustCompile(`(?m)^[0-9a-f]{13} +[0-9a-f]{13} +.* ago +Running +nginx +0 +[0-9a-f]{13} +nginx-`).MatchString(s.told.String()); {
		if time.Now().After(deadline) {
			t.Fatalf("the serve terminal after crictl ps -a on both nodes:\n%s", s.told.String())
		}
		time.Sleep(10 * time.Millisecond)
	}

	if out, code = s.step("3"); code != 0 || !strings.HasPrefix(out, "ran 3 step(s); cluster time +") {
		t.Errorf("kubesim step 3: %d %s", code, out)
	}
	if out, code = s.step("0"); code != 2 || !strings.Contains(out, "1 or more") {
		t.Errorf("kubesim step 0: %d %s", code, out)
	}
	if out, code = s.step("--context", "kubesim-alice"); code != 1 || !strings.Contains(out, `forbidden: User "alice" cannot post path "/kubesim/step"`) {
		t.Errorf("kubesim step as alice: %d %s", code, out)
	}
	s.stopServe()
}

// serve's flags that cannot go together are usage errors, before anything starts.
func TestServeFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--step", "--speed", "10"}, "--speed is for real time"},
		{[]string{"--scenario", "nope"}, `no exercise for scenario "nope"; serve --scenario takes: crash-loop, forbidden, `},
	} {
		var out bytes.Buffer
		if code := serve(context.Background(), tc.args, nil, &out, &out); code != 2 || !strings.Contains(out.String(), tc.want) {
			t.Errorf("serve %v: %d %s, want 2 and %q", tc.args, code, out.String(), tc.want)
		}
	}
}

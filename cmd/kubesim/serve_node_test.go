package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The serve terminal of a real-time cluster is a shell on its nodes: crictl shows the container of
// the pod kubectl created on the worker, and the control plane's on the control-plane node; journalctl
// shows a kubelet's lines; openssl reads the kubelet's client certificate, valid for a year; a node
// must be named, there being two; anything else gets the help.
func TestServeTerminalIsAShellOnTheNodes(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	terminal, typed := io.Pipe()
	s := startServe(t, serveOptions{nodes: 1, speed: 1, port: freePort(t), stdin: terminal})
	defer typed.Close()
	s.expect(a("create deployment web --image=nginx:1.25"), `^deployment.apps/web created`)
	s.expect(a("rollout status deployment/web --timeout=60s"), `deployment "web" successfully rolled out`)
	for _, line := range []string{"crictl ps --node node-1", "crictl pods --node node-1", "journalctl -u kubelet -n 50 --node node-1",
		"crictl ps --node control-plane", "crictl ps", "whoami",
		"openssl x509 -in /var/lib/kubelet/pki/kubelet-client-current.pem -noout -enddate --node node-1"} {
		io.WriteString(typed, line+"\n")
	}
	running := regexp.MustCompile(`(?m)^[0-9a-f]{13} +[0-9a-f]{13} +.* ago +Running +nginx +0 +[0-9a-f]{13} +web-[a-z0-9]+-[a-z0-9]+ +default$`)
	sandbox := regexp.MustCompile(`(?m)^[0-9a-f]{13} +.* ago +Ready +web-[a-z0-9]+-[a-z0-9]+ +default +0 +\(default\)$`)
	journal := regexp.MustCompile(`(?m)^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d node-1 kubelet: .*default/web-`)
	// Issued at the start of this run, by the wall clock: it ends a year later, less the signer's 5m.
	notAfter := regexp.MustCompile(`(?m)^notAfter=[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d ` + fmt.Sprint(time.Now().Add(8760*time.Hour-5*time.Minute).Year()) + ` GMT$`)
	apiServer := regexp.MustCompile(`(?m)^[0-9a-f]{13} +[0-9a-f]{13} +.* ago +Running +kube-apiserver +0 +[0-9a-f]{13} +kube-apiserver-control-plane +kube-system$`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		told := s.told.String()
		if running.MatchString(told) && sandbox.MatchString(told) && journal.MatchString(told) && apiServer.MatchString(told) && notAfter.MatchString(told) &&
			strings.Contains(told, "crictl runs on a node: say which with --node NODE (control-plane, node-1)") &&
			strings.Count(told, "This terminal is a shell on the nodes") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the serve terminal after crictl ps, crictl pods, journalctl, crictl ps on the control plane, crictl ps without a node, whoami and openssl:\n%s", told)
		}
	}
	s.stopServe()
}

package main

import (
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The serve terminal of a real-time cluster is a shell on its nodes: crictl shows the container of
// the pod kubectl created (on the only node, so --node may be left out); journalctl says it needs
// step mode; anything else gets the help.
func TestServeTerminalIsAShellOnTheNodes(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	terminal, typed := io.Pipe()
	s := startServe(t, serveOptions{nodes: 1, speed: 1, port: freePort(t), stdin: terminal})
	defer typed.Close()
	s.expect(a("create deployment web --image=nginx:1.25"), `^deployment.apps/web created`)
	s.expect(a("rollout status deployment/web --timeout=60s"), `deployment "web" successfully rolled out`)
	for _, line := range []string{"crictl ps", "crictl pods", "journalctl -u kubelet", "ls"} {
		io.WriteString(typed, line+"\n")
	}
	running := regexp.MustCompile(`(?m)^[0-9a-f]{13} +[0-9a-f]{13} +.* ago +Running +nginx +0 +[0-9a-f]{13} +web-[a-z0-9]+-[a-z0-9]+ +default$`)
	sandbox := regexp.MustCompile(`(?m)^[0-9a-f]{13} +.* ago +Ready +web-[a-z0-9]+-[a-z0-9]+ +default +0 +\(default\)$`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		told := s.told.String()
		if running.MatchString(told) && sandbox.MatchString(told) && strings.Contains(told, "this run keeps no journal") &&
			strings.Count(told, "This terminal is a shell on the nodes") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the serve terminal after crictl ps, crictl pods, journalctl and ls:\n%s", told)
		}
	}
	s.stopServe()
}

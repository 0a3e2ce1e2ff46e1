package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"kubesim/scenarios"
)

// Every exercise is a scenario of the catalogue that tells its signs, so that serve can print them.
func TestEveryExerciseIsAScenario(t *testing.T) {
	for _, name := range exerciseNames() {
		sc, ok := scenarios.Lookup(name)
		if !ok {
			t.Errorf("exercise %q names no scenario", name)
			continue
		}
		if !strings.Contains(sc.Teaches, "Signs to look for:") {
			t.Errorf("scenario %s does not tell its signs to look for", name)
		}
	}
	if _, _, err := lookupExercise("no-such"); err == nil || !strings.Contains(err.Error(), "crash-loop") {
		t.Errorf("lookupExercise(no-such): %v, want an error listing the exercises", err)
	}
}

// eventually runs kubectl until its output matches pattern, for at most d.
func (s *served) eventually(d time.Duration, args []string, pattern string) {
	s.t.Helper()
	re := regexp.MustCompile(regexp.MustCompile(` +`).ReplaceAllString(pattern, `\s+`))
	var got string
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(time.Second) {
		if got = s.kubectl(args...); re.MatchString(got) {
			return
		}
	}
	s.t.Errorf("kubectl %s:\n%s\nwant a match for %q within %s", strings.Join(args, " "), got, pattern, d)
}

// serve --scenario crash-loop hands over a pod that kubectl sees crash-looping.
func TestServeScenarioCrashLoop(t *testing.T) {
	s := startServe(t, serveOptions{speed: 1, port: freePort(t), scenario: "crash-loop"})
	s.eventually(60*time.Second, a("get pods"), `crasher 0/1 CrashLoopBackOff [1-9]`)
	s.expect(a("describe pod crasher"), `Last State: Terminated`, `Reason: Error`, `Exit Code: 1`)
	s.stopServe()
}

// serve --scenario insufficient-resources hands over a pod that no node has room for: three batch pods
// take 3 of each node's 3.9 allocatable CPUs, and big asks for 2.
func TestServeScenarioInsufficientResources(t *testing.T) {
	s := startServe(t, serveOptions{speed: 1, port: freePort(t), scenario: "insufficient-resources"})
	s.eventually(60*time.Second, a("describe pod big"), `Warning FailedScheduling .* 0/3 nodes are available: 3 Insufficient cpu\.`)
	s.expect(a("get pod big"), `big 0/1 Pending 0`)
	s.expect(a("get nodes"), `node-1`, `node-2`, `node-3`)
	s.stopServe()
}

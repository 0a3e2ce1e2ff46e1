package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"kubesim/internal/testenv"
	"kubesim/scenarios"
	"kubesim/sim"
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

// Every exercise sets up: its scenario's first steps run to their end on the scenario's cluster as
// serve shapes it, with a control-plane node and kubeadm's add-ons (in step mode here, where that is
// quick and the same every time).
func TestEveryExerciseSetsUp(t *testing.T) {
	for _, name := range exerciseNames() {
		t.Run(name, func(t *testing.T) {
			sc, ex, err := lookupExercise(name)
			if err != nil {
				t.Fatal(err)
			}
			cfg := kubeadmShaped(scenarioConfig(sc, 3))
			cfg.Mode, cfg.Seed = sim.StepMode, 1
			c, ctx := testenv.Cluster(t, cfg)
			if err := sim.SetUp(ctx, sc, c, ex.steps); err != nil {
				t.Error(err)
			}
		})
	}
	// A scenario cut after more steps than it has is an error that says so.
	sc, _, _ := lookupExercise("forbidden")
	c, ctx := testenv.Cluster(t, testenv.Step)
	if err := sim.SetUp(ctx, sc, c, 10); err == nil || !strings.Contains(err.Error(), "it has only 4 step(s)") {
		t.Errorf("SetUp(forbidden, 10 steps): %v", err)
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

// serve --scenario crash-loop hands over a pod that kubectl sees crash-looping. At speed 5: the sign
// needs a first crash and its 10 s back-off, and a component late on a loaded machine only delays it
// (TestServeCrashLoopAndLogsWithTheRealKubectl crash-loops a pod at speed 1).
func TestServeScenarioCrashLoop(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{speed: 5, port: freePort(t), scenario: "crash-loop"})
	s.eventually(60*time.Second, a("get pods"), `crasher 0/1 CrashLoopBackOff [1-9]`)
	if strings.Contains(s.told.String(), controlPlaneNodeNote) {
		t.Errorf("serve spoke of the scheduler's count in an exercise whose signs do not")
	}
	s.expect(a("describe pod crasher"), `Last State: Terminated`, `Reason: Error`, `Exit Code: 1`)
	s.stopServe()
}

// serve --scenario insufficient-resources hands over a pod that no node has room for: three batch pods
// take 3 of each node's 3.9 allocatable CPUs, and big asks for 2 (after the 10 s of cluster time the
// scenario lets batch run first; at speed 1, as the other serve tests: a sped-up clock on a loaded
// machine makes every component late by many cluster seconds).
func TestServeScenarioInsufficientResources(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{speed: 1, port: freePort(t), scenario: "insufficient-resources"})
	s.eventually(60*time.Second, a("describe pod big"), `Warning FailedScheduling .* 0/4 nodes are available: 1 node\(s\) had untolerated taint \{node-role.kubernetes.io/control-plane: \}, 3 Insufficient cpu\.`)
	s.expect(a("get pod big"), `big 0/1 Pending 0`)
	if !strings.Contains(s.told.String(), controlPlaneNodeNote) {
		t.Errorf("serve did not say that the scheduler counts its control-plane node:\n%s", s.told.String())
	}
	s.expect(a("get nodes"), `node-1`, `node-2`, `node-3`)
	s.stopServe()
}

// serve --scenario service-no-endpoints hands over a Service whose selector matches no pod.
func TestServeScenarioServiceNoEndpoints(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	s := startServe(t, serveOptions{speed: 1, port: freePort(t), scenario: "service-no-endpoints"})
	s.expect(a("get service web -o wide"), `NAME TYPE CLUSTER-IP EXTERNAL-IP PORT\(S\) AGE SELECTOR`,
		`web ClusterIP 10\.\d+\.\d+\.\d+ <none> 80/TCP \S+ app=web`)
	s.expect(a("get endpoints web"), `NAME ENDPOINTS AGE`, `web <none> `)
	s.expect(a("get pods -l app=web-app"), `web-[a-z0-9]+-[a-z0-9]+ 1/1 Running`)
	s.stopServe()
}

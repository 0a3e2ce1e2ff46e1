package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kubesim/apiserver/httpfront"
)

// serve --audit-log writes a JSON line per kubectl request: who, verb, resource, code, latency.
func TestServeAuditLog(t *testing.T) {
	t.Parallel() // real time: it mostly waits, beside the others that do
	path := filepath.Join(t.TempDir(), "audit.log")
	s := startServe(t, serveOptions{nodes: 1, speed: 1, port: freePort(t), auditLog: path})
	s.expect(a("get pods"), `No resources found`)
	s.expect(a("--context kubesim-alice get pod nope"), `Error from server \(Forbidden\)`)
	// Not in step mode, kubesim step says so.
	if out, code := s.step(); code != 1 || !strings.Contains(out, "the server is not in step mode") {
		t.Errorf("kubesim step against a real-time serve: %d %s", code, out)
	}
	s.stopServe()

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var adminList, aliceGet bool
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		var ev httpfront.AuditEvent
		if err := json.Unmarshal(lines.Bytes(), &ev); err != nil {
			t.Fatalf("%s: %v", lines.Text(), err)
		}
		ref := httpfront.AuditObjectRef{}
		if ev.ObjectRef != nil {
			ref = *ev.ObjectRef
		}
		switch {
		case ev.User.Username == "kubernetes-admin" && ev.Verb == "list" && ref.Resource == "pods" && ref.Namespace == "default" && ev.ResponseStatus.Code == 200:
			adminList = true
		case ev.User.Username == "alice" && ev.Verb == "get" && ref.Name == "nope" && ev.ResponseStatus.Code == 403:
			aliceGet = true
		}
		if ev.Annotations[httpfront.LatencyAnnotation] == "" {
			t.Errorf("no latency: %s", lines.Text())
		}
	}
	if !adminList || !aliceGet {
		t.Errorf("the audit log lacks kubectl get pods as the admin (%v) or get pod nope as alice (%v)", adminList, aliceGet)
	}
}

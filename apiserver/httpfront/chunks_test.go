package httpfront_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// createPods creates pods named p1..pn in default.
func createPods(t *testing.T, hs *httptest.Server, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		body := strings.Replace(nginxPod, `"name":"web"`, fmt.Sprintf(`"name":"p%d"`, i), 1)
		if code, _, out := call(t, hs, "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/json", body); code != 201 {
			t.Fatalf("create: %d %s", code, out)
		}
	}
}

// `kubectl get` lists in chunks (--chunk-size, 500 by default): it asks with limit, then again with
// each continue token the server returns, until the last chunk, and prints every item in one table.
func TestKubectlGetPagesThroughChunks(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl processes, beside the other kubectl tests
	_, hs := newFront(t)
	createPods(t, hs, 5)
	k := newKubectl(t, hs, "admin-token")
	got := k.expect("get pods --chunk-size=2 -v=6", `(?m)^NAME READY STATUS RESTARTS AGE$`,
		`(?m)^p1 0/1 Pending 0 `, `(?m)^p3 0/1 Pending 0 `, `(?m)^p5 0/1 Pending 0 `)
	if n := len(regexp.MustCompile(`url="https://\S+/api/v1/namespaces/default/pods\?limit=2" status="200 OK"`).FindAllString(got, -1)); n != 1 {
		t.Errorf("want one first chunk asked with limit=2, got %d:\n%s", n, got)
	}
	if n := len(regexp.MustCompile(`url="https://\S+/api/v1/namespaces/default/pods\?continue=\S+&limit=2" status="200 OK"`).FindAllString(got, -1)); n != 2 {
		t.Errorf("want two more chunks asked with their continue tokens, got %d:\n%s", n, got)
	}
	k.expect("get pods -o name", `^pod/p1\npod/p2\npod/p3\npod/p4\npod/p5\n$`)
}

// A continue token whose revision etcd has compacted is 410 Gone, in the etcd3 store's words, with
// metadata.continue: a token for the rest of the list at the current revision.
func TestExpiredContinueIsGone(t *testing.T) {
	srv, hs := newFront(t)
	createPods(t, hs, 3)
	_, _, body := call(t, hs, "admin-token", "GET", "/api/v1/namespaces/default/pods?limit=1", "", "")
	var list struct {
		Metadata struct {
			Continue           string `json:"continue"`
			RemainingItemCount *int64 `json:"remainingItemCount"`
		} `json:"metadata"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil || len(list.Items) != 1 || list.Metadata.Continue == "" ||
		list.Metadata.RemainingItemCount == nil || *list.Metadata.RemainingItemCount != 2 {
		t.Fatalf("first chunk: %s (%v)", body, err)
	}
	call(t, hs, "admin-token", "DELETE", "/api/v1/namespaces/default/pods/p3?gracePeriodSeconds=0", "", "")
	_, _, body = call(t, hs, "admin-token", "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"later"}}`)
	var later struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
	}
	json.Unmarshal([]byte(body), &later)
	rev, _ := strconv.ParseInt(later.Metadata.ResourceVersion, 10, 64)
	if err := srv.WaitForRevision(context.Background(), rev); err != nil {
		t.Fatal(err)
	}
	if err := srv.Compact(context.Background(), rev); err != nil {
		t.Fatal(err)
	}
	code, _, body := call(t, hs, "admin-token", "GET", "/api/v1/namespaces/default/pods?limit=1&continue="+list.Metadata.Continue, "", "")
	if c, reason, msg := status(t, body); code != 410 || c != 410 || reason != "Expired" ||
		!strings.HasPrefix(msg, "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response") {
		t.Fatalf("%d %s", code, body)
	}
	var gone struct {
		Metadata struct{ Continue string } `json:"metadata"`
	}
	json.Unmarshal([]byte(body), &gone)
	code, _, body = call(t, hs, "admin-token", "GET", "/api/v1/namespaces/default/pods?continue="+gone.Metadata.Continue, "", "")
	if code != 200 || !strings.Contains(body, `"name":"p2"`) || strings.Contains(body, `"name":"p3"`) {
		t.Errorf("the rest at the current revision: %d %s", code, body)
	}
}

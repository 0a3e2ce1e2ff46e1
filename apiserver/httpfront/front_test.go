package httpfront_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"kubesim/apiserver"
	"kubesim/apiserver/httpfront"
	"kubesim/clock"
	"kubesim/store"
)

// newFront starts an apiserver on a fresh embedded etcd behind the HTTP front, with two users: admin
// (system:masters, token admin-token) and alice (no grants, token alice-token).
func newFront(t testing.TB) (*apiserver.Server, *httptest.Server) {
	return newFrontWith(t, httpfront.Config{})
}

// newFrontWith is newFront with the front's Config (its Server and Clock are filled in).
func newFrontWith(t testing.TB, cfg httpfront.Config) (*apiserver.Server, *httptest.Server) {
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clock.NewReal(0), Seed: 1})
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	srv.AddCredential(apiserver.Credential{Token: "admin-token", User: apiserver.User{Name: "admin", Groups: []string{apiserver.GroupMasters}}})
	srv.AddCredential(apiserver.Credential{Token: "alice-token", User: apiserver.User{Name: "alice"}})
	cfg.Server, cfg.Clock = srv, clock.NewReal(0)
	hs := httptest.NewServer(httpfront.New(cfg))
	t.Cleanup(func() {
		hs.Close()
		cancel()
		st.Close()
	})
	return srv, hs
}

// call sends one request and returns the status code, the Warning headers and the body.
func call(t testing.TB, hs *httptest.Server, token, method, path, contentType, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// status decodes a Status body.
func status(t testing.TB, body string) (code int, reason, message string) {
	t.Helper()
	var s struct {
		Kind    string `json:"kind"`
		Code    int    `json:"code"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(body), &s); err != nil || s.Kind != "Status" {
		t.Fatalf("not a Status: %s (%v)", body, err)
	}
	return s.Code, s.Reason, s.Message
}

const nginxPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","labels":{"app":"web"}},
"spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}}`

const webDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        env:
        - {name: A, value: "1"}
`

// Every failure is a Status carrying the apiserver's code, reason and message: this is what kubectl
// turns into `Error from server (NotFound): pods "nope" not found`.
func TestFailuresAreStatusesInKubernetesWords(t *testing.T) {
	_, hs := newFront(t)
	for _, tc := range []struct {
		name, token, method, path, contentType, body string
		code                                         int
		reason, message                              string
	}{
		{"not found", "admin-token", "GET", "/api/v1/namespaces/default/pods/nope", "", "", 404, "NotFound", `pods "nope" not found`},
		{"no credentials", "", "GET", "/api/v1/pods", "", "", 401, "Unauthorized", "Unauthorized"},
		{"bad token, even for /version", "wrong", "GET", "/version", "", "", 401, "Unauthorized", "Unauthorized"},
		{"forbidden list", "alice-token", "GET", "/api/v1/namespaces/default/pods", "", "", 403, "Forbidden",
			`pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`},
		{"unknown path", "admin-token", "GET", "/apis/nothing.example.com/v1/widgets", "", "", 404, "NotFound", "the server could not find the requested resource"},
		{"unknown resource", "admin-token", "GET", "/api/v1/widgets", "", "", 404, "NotFound", "the server could not find the requested resource"},
		{"malformed body", "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/json", `{"metadata": `, 400, "BadRequest", `Pod in version "v1" cannot be handled as a Pod: `},
		{"unknown field, strict", "admin-token", "POST", "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict", "application/yaml",
			strings.Replace(webDeployment, "replicas:", "replica:", 1), 400, "BadRequest",
			`Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"`},
		{"too large", "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/json", `{"x":"` + strings.Repeat("a", httpfront.MaxBodyBytes) + `"}`, 413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728"},
		{"exec", "admin-token", "POST", "/api/v1/namespaces/default/pods/web/exec", "", "", 501, "NotImplemented", "pods/exec is not supported in kubesim"},
		{"protobuf garbage", "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/vnd.kubernetes.protobuf", "garbage", 400, "BadRequest", `Pod in version "v1" cannot be handled as a Pod: decoding protobuf`},
		{"forbidden patch names the verb patch", "alice-token", "PATCH", "/apis/apps/v1/namespaces/default/deployments/web/scale", "application/merge-patch+json", `{"spec":{"replicas":2}}`, 403, "Forbidden",
			`deployments.apps "web" is forbidden: User "alice" cannot patch resource "deployments/scale" in API group "apps" in the namespace "default"`},
		{"apply without a field manager", "admin-token", "PATCH", "/api/v1/namespaces/default/pods/web", "application/apply-patch+yaml", "{}", 422, "Invalid",
			`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`},
		{"apply of another kind", "admin-token", "PATCH", "/api/v1/namespaces/default/pods/web?fieldManager=x", "application/apply-patch+yaml", "{apiVersion: v1, kind: Service}", 400, "BadRequest",
			"the kind in the data (Service) does not match the expected kind (Pod)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := call(t, hs, tc.token, tc.method, tc.path, tc.contentType, tc.body)
			sc, reason, msg := status(t, body)
			if code != tc.code || sc != tc.code || reason != tc.reason || !strings.HasPrefix(msg, tc.message) {
				t.Errorf("got %d %s %q (Status code %d), want %d %s %q...", code, reason, msg, sc, tc.code, tc.reason, tc.message)
			}
		})
	}
}

// fieldValidation=Warn (the server's default) drops the unknown field and says so in a Warning
// header, which kubectl prints as `Warning: unknown field "spec.replica"`.
func TestFieldValidationWarnKeepsTheObjectAndWarns(t *testing.T) {
	_, hs := newFront(t)
	code, h, body := call(t, hs, "admin-token", "POST", "/apis/apps/v1/namespaces/default/deployments", "application/yaml",
		strings.Replace(webDeployment, "replicas:", "replica:", 1))
	if code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	if got := h.Values("Warning"); len(got) != 1 || got[0] != `299 - "unknown field \"spec.replica\""` {
		t.Errorf("Warning headers %q", got)
	}
}

// The three patch types, as kubectl scale (merge patch on /scale), kubectl set image (strategic
// merge patch: containers merge by name) and a JSON patch send them.
func TestPatchesGoThroughTheUpdatePath(t *testing.T) {
	_, hs := newFront(t)
	base := "/apis/apps/v1/namespaces/default/deployments/web"
	if code, _, body := call(t, hs, "admin-token", "POST", "/apis/apps/v1/namespaces/default/deployments", "application/yaml", webDeployment); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	steps := []struct{ path, contentType, patch, want string }{
		{base + "/scale", "application/merge-patch+json", `{"spec":{"replicas":5}}`, `"replicas":5`},
		{base, "application/strategic-merge-patch+json", `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}}`, `"image":"nginx:1.26"`},
		{base, "application/json-patch+json", `[{"op":"replace","path":"/spec/replicas","value":1}]`, `"replicas":1`},
	}
	for _, s := range steps {
		code, _, body := call(t, hs, "admin-token", "PATCH", s.path, s.contentType, s.patch)
		if code != 200 || !strings.Contains(body, s.want) {
			t.Fatalf("PATCH %s %s: %d %s", s.contentType, s.patch, code, body)
		}
	}
	// The strategic merge kept the env list of the container it merged into; each of the three spec
	// changes moved the generation.
	_, _, body := call(t, hs, "admin-token", "GET", base, "", "")
	if !strings.Contains(body, `"env":[{"name":"A","value":"1"}]`) || !strings.Contains(body, `"generation":4`) {
		t.Errorf("after the patches: %s", body)
	}
}

// kubectl get asks for a Table; the pod columns are kubectl's, -o wide ones at priority 1, and each
// row carries the object's metadata.
func TestPodTableHasKubectlsColumns(t *testing.T) {
	_, hs := newFront(t)
	if code, _, body := call(t, hs, "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/json", nginxPod); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	_, _, body := call(t, hs, "admin-token", "GET", "/api/v1/namespaces/default/pods", "", "", "Accept",
		"application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
	var table struct {
		Kind    string `json:"kind"`
		Columns []struct {
			Name     string `json:"name"`
			Priority int    `json:"priority"`
		} `json:"columnDefinitions"`
		Rows []struct {
			Cells  []any `json:"cells"`
			Object struct {
				Kind     string `json:"kind"`
				Metadata struct {
					Namespace string `json:"namespace"`
				} `json:"metadata"`
			} `json:"object"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(body), &table); err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, c := range table.Columns {
		name := c.Name
		if c.Priority == 1 {
			name += "(wide)"
		}
		cols = append(cols, name)
	}
	if got, want := strings.Join(cols, ","), "Name,Ready,Status,Restarts,Age,IP(wide),Node(wide),Nominated Node(wide),Readiness Gates(wide)"; got != want {
		t.Errorf("columns %s, want %s", got, want)
	}
	if len(table.Rows) != 1 {
		t.Fatalf("rows: %s", body)
	}
	row := table.Rows[0]
	if row.Cells[0] != "web" || row.Cells[1] != "0/1" || row.Cells[2] != "Pending" || row.Cells[5] != "<none>" ||
		row.Object.Kind != "PartialObjectMetadata" || row.Object.Metadata.Namespace != "default" {
		t.Errorf("row %v", row)
	}
}

// A watch from a compacted resourceVersion is a 200 stream whose one event is ERROR with the 410
// Status: the reflector's cue to relist.
func TestWatchFromACompactedResourceVersionIsAnErrorEvent(t *testing.T) {
	srv, hs := newFront(t)
	var rv, last string
	for _, name := range []string{"a", "b"} {
		code, _, body := call(t, hs, "admin-token", "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"`+name+`"}}`)
		if code != 201 {
			t.Fatalf("create: %d %s", code, body)
		}
		var ns struct {
			Metadata struct{ ResourceVersion string } `json:"metadata"`
		}
		json.Unmarshal([]byte(body), &ns)
		if rv == "" {
			rv = ns.Metadata.ResourceVersion
		}
		last = ns.Metadata.ResourceVersion
	}
	// Compact up to the second write, once the watch cache has read it: the first write's
	// resourceVersion is then older than anything the cache or etcd keeps.
	upTo, _ := strconv.ParseInt(last, 10, 64)
	if err := srv.WaitForRevision(context.Background(), upTo); err != nil {
		t.Fatal(err)
	}
	if err := srv.Compact(context.Background(), upTo); err != nil {
		t.Fatal(err)
	}
	code, h, body := call(t, hs, "admin-token", "GET", "/api/v1/namespaces?watch=true&resourceVersion="+rv, "", "")
	var ev struct {
		Type   string `json:"type"`
		Object struct {
			Code   int    `json:"code"`
			Reason string `json:"reason"`
		} `json:"object"`
	}
	if err := json.Unmarshal([]byte(body), &ev); err != nil || code != 200 || h.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s (%v)", code, body, err)
	}
	if ev.Type != "ERROR" || ev.Object.Code != 410 || ev.Object.Reason != "Expired" {
		t.Errorf("event %+v", ev)
	}
}

// A live watch streams one JSON line per change.
func TestWatchStreamsChanges(t *testing.T) {
	_, hs := newFront(t)
	req, _ := http.NewRequest("GET", hs.URL+"/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=10", nil)
	req.Header.Set("Authorization", "Bearer admin-token")
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if code, _, body := call(t, hs, "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/json", nginxPod); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	lines := bufio.NewScanner(resp.Body)
	done := make(chan string, 1)
	go func() {
		lines.Scan()
		done <- lines.Text()
	}()
	select {
	case line := <-done:
		if !strings.HasPrefix(line, `{"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"`) {
			t.Errorf("first line %s", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
}

// Discovery comes in the aggregated form when asked for with its exact content type, else as the
// legacy documents.
func TestDiscoveryBothForms(t *testing.T) {
	_, hs := newFront(t)
	_, h, body := call(t, hs, "admin-token", "GET", "/apis", "", "", "Accept",
		"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
	if h.Get("Content-Type") != "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" ||
		!strings.Contains(body, `"resource":"deployments"`) || !strings.Contains(body, `"subresource":"scale"`) {
		t.Errorf("aggregated: %s %s", h.Get("Content-Type"), body)
	}
	_, _, body = call(t, hs, "admin-token", "GET", "/apis/apps/v1", "", "")
	if !strings.Contains(body, `"kind":"APIResourceList"`) || !strings.Contains(body, `"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment"`) {
		t.Errorf("legacy: %s", body)
	}
}

// /metrics is Prometheus text for the cluster admin, and a path the others may not get.
func TestMetrics(t *testing.T) {
	_, hs := newFront(t)
	call(t, hs, "admin-token", "GET", "/api/v1/namespaces/default/pods/nope", "", "")
	code, h, body := call(t, hs, "admin-token", "GET", "/metrics", "", "")
	if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") ||
		!strings.Contains(body, `apiserver_request_total{code="404",group="",resource="pods",verb="GET"} 1`) ||
		!strings.Contains(body, `apiserver_request_duration_seconds_sum{group="",resource="pods",verb="GET"} `) {
		t.Errorf("%d %s", code, body)
	}
	code, _, body = call(t, hs, "alice-token", "GET", "/metrics", "", "")
	if _, reason, msg := status(t, body); code != 403 || reason != "Forbidden" || msg != `forbidden: User "alice" cannot get path "/metrics"` {
		t.Errorf("alice: %d %s", code, body)
	}
}

// Beyond MaxRequestsInFlight, a request is turned away with 429 and Retry-After, before it costs
// anything; a watch does not count.
func TestTooManyRequestsInFlight(t *testing.T) {
	_, hs := newFrontWith(t, httpfront.Config{MaxRequestsInFlight: 1})
	// One request in flight: its headers promise a body that never comes. answered is closed when the
	// server answers it: a poll below that held the one place when it arrived turns it away with 429
	// (Connection: close, or net/http would wait for the body before it sends that answer).
	send := func() (net.Conn, <-chan struct{}) {
		conn, err := net.Dial("tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(conn, "POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: kubesim\r\nAuthorization: Bearer admin-token\r\n"+
			"Connection: close\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
		answered := make(chan struct{})
		go func() {
			conn.Read(make([]byte, 1))
			close(answered)
		}()
		return conn, answered
	}
	conn, answered := send()
	defer func() { conn.Close() }()

	until := func(want int) (int, http.Header, string) {
		var code int
		var h http.Header
		var body string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if code, h, body = call(t, hs, "admin-token", "GET", "/api/v1/namespaces", "", ""); code == want {
				break
			}
			select {
			case <-answered:
				if want == 429 { // the held request was turned away: hold the place again
					conn.Close()
					conn, answered = send()
				}
			default:
			}
		}
		return code, h, body
	}
	code, h, body := until(429)
	if code != 429 || h.Get("Retry-After") != "1" || !strings.Contains(body, `"reason":"TooManyRequests"`) ||
		!strings.Contains(body, `"message":"Too many requests, please try again later."`) {
		t.Errorf("while one request is in flight: %d %v %s", code, h, body)
	}
	wreq, _ := http.NewRequest("GET", hs.URL+"/api/v1/namespaces?watch=1&timeoutSeconds=1", nil)
	wreq.Header.Set("Authorization", "Bearer admin-token")
	if resp, err := hs.Client().Do(wreq); err != nil || resp.StatusCode != 200 {
		t.Errorf("a watch while the limit is reached: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	conn.Close() // the body never comes: that request ends, and frees its place
	if code, _, body := until(200); code != 200 {
		t.Errorf("after it: %d %s", code, body)
	}
}

// Bad input of every kind is a Status below 500: the front never panics and never answers 500 for
// what the client got wrong.
func TestBadInputIsAClientError(t *testing.T) {
	_, hs := newFront(t)
	if code, _, body := call(t, hs, "admin-token", "POST", "/apis/apps/v1/namespaces/default/deployments", "application/yaml", webDeployment); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	deploy := "/apis/apps/v1/namespaces/default/deployments/web"
	for _, tc := range []struct {
		method, path, contentType, body string
		code                            int
	}{
		{"GET", "/api/v1/namespaces//pods", "", "", 404},
		{"GET", "/api/v1/namespaces/default/pods/a/b/c", "", "", 404},
		{"GET", "/api/v2/pods", "", "", 404},
		{"GET", "/apis/apps/v1/namespaces/default/nodes", "", "", 404},
		{"GET", "/api/v1/pods?labelSelector=a%3D%3D%3Db", "", "", 400},
		{"GET", "/api/v1/pods?resourceVersion=abc", "", "", 400},
		{"GET", "/api/v1/pods?watch=1&timeoutSeconds=soon", "", "", 400},
		{"GET", "/api/v1/namespaces/default/pods/nope/log", "", "", 404},
		{"POST", "/api/v1/namespaces/default/pods", "application/json", `[]`, 400},
		{"POST", "/api/v1/namespaces/default/pods", "application/json", `null`, 400},
		{"POST", "/api/v1/namespaces/default/pods", "application/json", `{"apiVersion":"apps/v1","kind":"Deployment"}`, 400},
		{"POST", "/api/v1/namespaces/default/pods", "text/plain", `hello`, 415},
		{"POST", "/api/v1/namespaces/default/pods?fieldValidation=Bogus", "application/json", nginxPod, 400},
		{"POST", "/api/v1/namespaces/default/pods/web/binding", "application/json", `{"target":`, 400},
		{"PUT", deploy, "application/yaml", strings.Replace(webDeployment, "name: web", "name: other", 1), 400},
		{"PATCH", deploy, "application/json-patch+json", `{"op":"nonsense"}`, 400},
		{"PATCH", deploy, "application/json-patch+json", `[{"op":"remove","path":"/spec/nothing/here"}]`, 400},
		{"PATCH", deploy, "application/merge-patch+json", `{"spec":{"replicas":"many"}}`, 400},
		{"PATCH", deploy, "application/strategic-merge-patch+json", `{"spec":`, 400},
		{"PATCH", deploy + "/log", "application/merge-patch+json", `{}`, 404},
		{"PATCH", deploy, "text/plain", `{}`, 415},
		{"DELETE", "/api/v1/namespaces/default/pods", "", "", 405},
		{"DELETE", deploy, "application/json", `{"gracePeriodSeconds":"x"}`, 400},
		{"DELETE", deploy + "?gracePeriodSeconds=soon", "", "", 400},
	} {
		code, _, body := call(t, hs, "admin-token", tc.method, tc.path, tc.contentType, tc.body)
		if code != tc.code || !strings.Contains(body, `"kind":"Status"`) || !strings.Contains(body, fmt.Sprintf(`"code":%d`, tc.code)) {
			t.Errorf("%s %s %q: %d %s, want a %d Status", tc.method, tc.path, tc.body, code, body, tc.code)
		}
	}
}

// A panic below the chain's top is a 500 Status, not a dropped connection. (A front without an
// apiserver panics on its first request.)
func TestPanicIsAnInternalErrorStatus(t *testing.T) {
	hs := httptest.NewServer(httpfront.New(httpfront.Config{}))
	defer hs.Close()
	code, _, body := call(t, hs, "admin-token", "GET", "/version", "", "")
	if sc, reason, msg := status(t, body); code != 500 || sc != 500 || reason != "InternalError" ||
		!strings.HasPrefix(msg, "Internal error occurred: panic while serving GET /version: ") {
		t.Errorf("%d %s", code, body)
	}
}

package httpfront_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/wire"
)

// BenchmarkCreateGetHTTPSvsInProcess measures what the HTTP front costs: each iteration creates a pod
// and reads it back through (*apiserver.Server).Do, as a component does, then does the same through
// the HTTPS front with JSON bodies, as kubectl does (one kept-alive TLS connection, bearer token).
// Both run against the same apiserver and etcd, alternating, so the reported ratio https/inproc
// compares like with like on a loaded machine.
func BenchmarkCreateGetHTTPSvsInProcess(b *testing.B) {
	srv, hs := newFront(b)
	tls := httptest.NewTLSServer(hs.Config.Handler)
	b.Cleanup(tls.Close)
	client := tls.Client()
	ctx := context.Background()
	send := func(method, path, body string) {
		req, _ := http.NewRequest(method, tls.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer admin-token")
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) // read to the end, or the connection is not reused
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			b.Fatalf("%s %s: %d", method, path, resp.StatusCode)
		}
	}
	var inProcess, overHTTPS time.Duration
	n := 0
	for b.Loop() {
		name := fmt.Sprintf("in-%d", n)
		start := time.Now()
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
		if _, err := srv.Do(ctx, &wire.Request{Token: "admin-token", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: pod}); err != nil {
			b.Fatal(err)
		}
		if _, err := srv.Do(ctx, &wire.Request{Token: "admin-token", Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: name}); err != nil {
			b.Fatal(err)
		}
		inProcess += time.Since(start)

		name = fmt.Sprintf("http-%d", n)
		start = time.Now()
		send("POST", "/api/v1/namespaces/default/pods", strings.Replace(nginxPod, `"name":"web"`, `"name":"`+name+`"`, 1))
		send("GET", "/api/v1/namespaces/default/pods/"+name, "")
		overHTTPS += time.Since(start)
		n++
	}
	b.ReportMetric(float64(inProcess.Nanoseconds())/float64(n), "inproc-ns/op")
	b.ReportMetric(float64(overHTTPS.Nanoseconds())/float64(n), "https-ns/op")
	b.ReportMetric(float64(overHTTPS)/float64(inProcess), "https/inproc")
}

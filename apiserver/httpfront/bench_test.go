package httpfront_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/wire"
)

// paths sends the same requests two ways against one apiserver and etcd: through (*apiserver.Server).Do,
// as a component does, and through the HTTPS front with JSON bodies, as kubectl does (one kept-alive
// TLS connection, bearer token).
type paths struct {
	b      *testing.B
	srv    *apiserver.Server
	url    string
	client *http.Client
}

func newPaths(b *testing.B) *paths {
	srv, hs := newFront(b)
	tls := httptest.NewTLSServer(hs.Config.Handler)
	b.Cleanup(tls.Close)
	return &paths{b: b, srv: srv, url: tls.URL, client: tls.Client()}
}

// do is one request in process.
func (p *paths) do(req *wire.Request) {
	req.Token = "admin-token"
	if _, err := p.srv.Do(context.Background(), req); err != nil {
		p.b.Fatal(err)
	}
}

// send is one request over HTTPS, its body read to the end so that the connection is reused.
func (p *paths) send(method, path, body string) {
	req, _ := http.NewRequest(method, p.url+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer admin-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		p.b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		p.b.Fatalf("%s %s: %d", method, path, resp.StatusCode)
	}
}

func podNamed(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
}

func podJSON(name string) string {
	return strings.Replace(nginxPod, `"name":"web"`, `"name":"`+name+`"`, 1)
}

// BenchmarkCreateGetHTTPSvsInProcess measures what the HTTP front costs: each iteration creates a pod
// and reads it back in process, then does the same over HTTPS. Both alternate against the same
// apiserver, so the reported ratio https/inproc compares like with like on a loaded machine.
func BenchmarkCreateGetHTTPSvsInProcess(b *testing.B) {
	p := newPaths(b)
	var inProcess, overHTTPS time.Duration
	n := 0
	for b.Loop() {
		name := fmt.Sprintf("in-%d", n)
		start := time.Now()
		p.do(&wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: podNamed(name)})
		p.do(&wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: name})
		inProcess += time.Since(start)

		name = fmt.Sprintf("http-%d", n)
		start = time.Now()
		p.send("POST", "/api/v1/namespaces/default/pods", podJSON(name))
		p.send("GET", "/api/v1/namespaces/default/pods/"+name, "")
		overHTTPS += time.Since(start)
		n++
	}
	b.ReportMetric(float64(inProcess.Nanoseconds())/float64(n), "inproc-ns/op")
	b.ReportMetric(float64(overHTTPS.Nanoseconds())/float64(n), "https-ns/op")
	b.ReportMetric(float64(overHTTPS)/float64(inProcess), "https/inproc")
}

// BenchmarkLatencyUnderChurn measures single requests while a writer keeps creating and deleting pods
// in another namespace: each iteration times a create, a get and a list of the namespace (which grows
// to b.N pods) in process and over HTTPS, and the benchmark reports each one's p50 and p99 in
// milliseconds, beside the Kubernetes API call latency SLOs it is measured against (p99 of mutating
// and single-object calls under 1 s; of a namespace-scoped list under 5 s).
func BenchmarkLatencyUnderChurn(b *testing.B) {
	p := newPaths(b)
	p.do(&wire.Request{Verb: wire.VerbCreate, Resource: "namespaces", Body: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "churn"}}})
	// No serviceaccount controller runs here: the namespace's default ServiceAccount is made by hand.
	p.do(&wire.Request{Verb: wire.VerbCreate, Resource: "serviceaccounts", Namespace: "churn",
		Body: &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "default", Namespace: "churn"}}})
	stop := make(chan struct{})
	var churned sync.WaitGroup
	churned.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			pod := podNamed(fmt.Sprintf("churn-%d", i))
			pod.Namespace = "churn"
			_, err := p.srv.Do(context.Background(), &wire.Request{Token: "admin-token", Verb: wire.VerbCreate, Resource: "pods", Namespace: "churn", Body: pod})
			if err == nil && i >= 20 {
				_, err = p.srv.Do(context.Background(), &wire.Request{Token: "admin-token", Verb: wire.VerbDelete, Resource: "pods", Namespace: "churn", Name: fmt.Sprintf("churn-%d", i-20)})
			}
			if err != nil {
				b.Error(err) // not Fatal: this is not the benchmark's goroutine
				return
			}
		}
	})
	defer func() { close(stop); churned.Wait() }()

	samples := map[string][]time.Duration{}
	timed := func(key string, f func()) {
		start := time.Now()
		f()
		samples[key] = append(samples[key], time.Since(start))
	}
	n := 0
	for b.Loop() {
		in, out := fmt.Sprintf("in-%d", n), fmt.Sprintf("http-%d", n)
		timed("create-inproc", func() {
			p.do(&wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: podNamed(in)})
		})
		timed("create-https", func() { p.send("POST", "/api/v1/namespaces/default/pods", podJSON(out)) })
		timed("get-inproc", func() { p.do(&wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: in}) })
		timed("get-https", func() { p.send("GET", "/api/v1/namespaces/default/pods/"+out, "") })
		timed("list-inproc", func() { p.do(&wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default"}) })
		timed("list-https", func() { p.send("GET", "/api/v1/namespaces/default/pods", "") })
		n++
	}
	for _, key := range []string{"create", "get", "list"} {
		for _, path := range []string{"inproc", "https"} {
			d := samples[key+"-"+path]
			slices.Sort(d)
			b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, key+"-"+path+"-p50-ms")
			b.ReportMetric(float64(d[(len(d)*99)/100].Microseconds())/1000, key+"-"+path+"-p99-ms")
		}
	}
	b.ReportMetric(1000, "slo-mutating-p99-ms")
	b.ReportMetric(5000, "slo-list-p99-ms")
}

// metrics.go: the apiserver's own counters, the few of kube-apiserver's metrics a learner needs to see
// a problem's shape: apiserver_request_total by verb, resource and code, and the summed request
// latency, so that a relist storm (watch-expired) or a slow etcd (etcd-slow) shows up as numbers.
package apiserver

import (
	"sort"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

type metrics struct {
	mu       sync.Mutex
	requests map[seriesKey]int64         // guarded by mu
	latency  map[seriesKey]time.Duration // guarded by mu; code is 0 in these keys
}

type seriesKey struct {
	verb, resource string
	code           int
}

func (m *metrics) observe(req *wire.Request, res *api.Resource, err error, took time.Duration) {
	resource := req.Resource
	if res != nil {
		resource = res.GroupResource()
	}
	code := 200
	if req.Verb == wire.VerbCreate {
		code = 201
	}
	if err != nil {
		code = apierrors.CodeForError(err)
		if code == 0 {
			code = 500
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.requests == nil {
		m.requests, m.latency = map[seriesKey]int64{}, map[seriesKey]time.Duration{}
	}
	m.requests[seriesKey{req.Verb, resource, code}]++
	m.latency[seriesKey{verb: req.Verb, resource: resource}] += took
}

// RequestCount is one apiserver_request_total series.
type RequestCount struct {
	Verb, Resource string
	Code           int
	Count          int64
}

// Requests returns apiserver_request_total, sorted.
func (s *Server) Requests() []RequestCount {
	s.metrics.mu.Lock()
	defer s.metrics.mu.Unlock()
	out := make([]RequestCount, 0, len(s.metrics.requests))
	for k, n := range s.metrics.requests {
		out = append(out, RequestCount{Verb: k.verb, Resource: k.resource, Code: k.code, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Resource != b.Resource {
			return a.Resource < b.Resource
		}
		if a.Verb != b.Verb {
			return a.Verb < b.Verb
		}
		return a.Code < b.Code
	})
	return out
}

// RequestLatency returns the summed latency of requests with this verb and resource
// (apiserver_request_duration_seconds_sum).
func (s *Server) RequestLatency(verb, groupResource string) time.Duration {
	s.metrics.mu.Lock()
	defer s.metrics.mu.Unlock()
	return s.metrics.latency[seriesKey{verb: verb, resource: groupResource}]
}

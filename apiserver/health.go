// health.go: /readyz, what a load balancer and `kubectl get --raw='/readyz?verbose'` ask the
// apiserver: is it ready to serve? Like kube-apiserver it reports one named check per line and
// withholds the reason of a failure from the reply (the reason goes to the apiserver's log):
//
//	(*Server).Readyz(ctx)   the checks and the verdict; the HTTP front writes it out
//
// Its etcd check is kube-apiserver's etcd-readiness: read the key /registry/health within 2s
// (storagebackend.DefaultReadinessTimeout), a linearizable read that only a member with a quorum
// behind it answers. An apiserver whose etcd has lost its quorum is not ready, though its watch cache
// still answers the reads it can.
package apiserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kubesim/store"
)

// readinessTimeout is how long the etcd readiness check may take.
const readinessTimeout = 2 * time.Second

// HealthCheck is one named check of /readyz.
type HealthCheck struct {
	Name string
	// Err is why the check failed, nil when it passed. The reply withholds it, as kube-apiserver does.
	Err error
}

// Readiness is the answer to /readyz.
type Readiness struct {
	Checks []HealthCheck
}

// Ready reports whether every check passed: 200 from /readyz, else 500.
func (r Readiness) Ready() bool {
	for _, c := range r.Checks {
		if c.Err != nil {
			return false
		}
	}
	return true
}

// String is the body of /readyz?verbose.
func (r Readiness) String() string {
	var b strings.Builder
	for _, c := range r.Checks {
		if c.Err != nil {
			fmt.Fprintf(&b, "[-]%s failed: reason withheld\n", c.Name)
		} else {
			fmt.Fprintf(&b, "[+]%s ok\n", c.Name)
		}
	}
	if r.Ready() {
		b.WriteString("readyz check passed\n")
	} else {
		b.WriteString("readyz check failed\n")
	}
	return b.String()
}

// Readyz runs the readiness checks: ping (the apiserver answers at all) and etcd-readiness.
func (s *Server) Readyz(ctx context.Context) Readiness {
	ctx, cancel := context.WithTimeout(ctx, readinessTimeout)
	defer cancel()
	var etcdErr error
	if _, err := s.store.Get(ctx, "/registry/health"); err != nil && !store.IsNotFound(err) {
		etcdErr = fmt.Errorf("error getting data from etcd: %w", err)
	}
	return Readiness{Checks: []HealthCheck{{Name: "ping"}, {Name: "etcd-readiness", Err: etcdErr}}}
}

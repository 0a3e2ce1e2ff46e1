package httpfront_test

// Linearizability through the HTTPS front: the histories of apiserver's linearizability test, with
// the same register model and store faults (internal/testenv/robustness), but each operation is an
// HTTP request over TLS, as kubectl's, from concurrent clients: GET, POST, PUT with a resourceVersion,
// DELETE on /apis/coordination.k8s.io/v1/namespaces/default/leases. The front adds decoding, content
// negotiation and its own status mapping between the client and the pipeline; none of it may
// reorder, lose or invent a write.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/apiserver/httpfront"
	"kubesim/clock"
	"kubesim/internal/testenv/robustness"
	"kubesim/store"
)

// leaseTransport runs the register's operations on Leases over HTTPS as admin; the "v" label is the
// register's value.
func leaseTransport(hs *httptest.Server) robustness.Transport {
	const path = "/apis/coordination.k8s.io/v1/namespaces/default/leases"
	client := hs.Client()
	return func(ctx context.Context, _ int, in robustness.Input) (robustness.Output, error) {
		lease := api.Lease{TypeMeta: api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
			ObjectMeta: api.ObjectMeta{Name: in.Key, Namespace: "default", Labels: map[string]string{"v": in.Value}}}
		method, url, body := http.MethodGet, path+"/"+in.Key, []byte(nil)
		switch in.Op {
		case robustness.Create:
			method, url = http.MethodPost, path
		case robustness.Update:
			method, lease.ResourceVersion = http.MethodPut, strconv.FormatInt(in.RV, 10)
		case robustness.Delete:
			method = http.MethodDelete
		}
		if in.Op == robustness.Create || in.Op == robustness.Update {
			body, _ = json.Marshal(&lease)
		}
		req, err := http.NewRequestWithContext(ctx, method, hs.URL+url, bytes.NewReader(body))
		if err != nil {
			return robustness.Output{}, err
		}
		req.Header.Set("Authorization", "Bearer admin-token")
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return robustness.Output{}, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return robustness.Output{}, err
		}
		switch code := resp.StatusCode; {
		case code == http.StatusOK && in.Op == robustness.Delete:
			return robustness.Output{Status: robustness.OK}, nil // a Success Status
		case code == http.StatusOK || code == http.StatusCreated:
			var got api.Lease
			if err := json.Unmarshal(data, &got); err != nil {
				return robustness.Output{}, err
			}
			rv, _ := strconv.ParseInt(got.ResourceVersion, 10, 64)
			return robustness.Output{Status: robustness.OK, Value: got.Labels["v"], RV: rv}, nil
		case code == http.StatusNotFound:
			return robustness.Output{Status: robustness.NotFound}, nil
		case code == http.StatusConflict && in.Op == robustness.Create:
			return robustness.Output{Status: robustness.Exists}, nil
		case code == http.StatusConflict:
			return robustness.Output{Status: robustness.Conflict}, nil
		default:
			return robustness.Output{}, fmt.Errorf("%s %s: %d %s", method, url, code, data)
		}
	}
}

func TestLinearizabilityOverHTTPSUnderFaults(t *testing.T) {
	total := 0
	for _, seed := range []int64{1, 2} {
		t.Run("seed="+strconv.FormatInt(seed, 10), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			st, err := store.Open(ctx, store.Config{})
			if err != nil {
				t.Fatal(err)
			}
			srv := apiserver.New(apiserver.Config{Store: st, Clock: clock.Real{}, Seed: seed})
			if err := srv.Start(ctx); err != nil {
				t.Fatal(err)
			}
			srv.AddCredential(apiserver.Credential{Token: "admin-token", User: apiserver.User{Name: "admin", Groups: []string{apiserver.GroupMasters}}})
			hs := httptest.NewTLSServer(httpfront.New(httpfront.Config{Server: srv, Clock: clock.Real{}}))
			t.Cleanup(func() {
				hs.Close()
				cancel()
				st.Close()
			})

			faultCtx, stopFaults := context.WithCancel(ctx)
			stop := robustness.InjectFaults(faultCtx, rand.New(rand.NewSource(seed)), st, srv.Compact, 20*time.Millisecond)
			history, err := robustness.Run(robustness.RunConfig{Seed: seed, Clients: 8, OpsPerClient: 150, Budget: 5 * time.Second, Overtime: 20 * time.Second,
				Keys: []string{"a", "b", "c"}}, leaseTransport(hs))
			stopFaults()
			compactions := stop()
			if err != nil {
				t.Fatal(err)
			}
			counts := robustness.Check(t, history, 20*time.Second)
			if counts["update/ok"] == 0 || counts["update/conflict"] == 0 || counts["delete/ok"] == 0 {
				t.Fatalf("the history must have compare-and-swaps that win and lose, and deletes: %s", robustness.Summary(counts))
			}
			total += len(history)
			t.Logf("seed %d: %d HTTPS requests linearizable (%d compactions during the run): %s", seed, len(history), compactions, robustness.Summary(counts))
		})
	}
	t.Logf("%d operations checked", total)
}

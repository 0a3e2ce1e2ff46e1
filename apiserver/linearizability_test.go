package apiserver

// Linearizability, as etcd's robustness suite checks it: clients run concurrent create, get, update
// (compare-and-swap on resourceVersion) and delete against the apiserver while the store is faulted
// (slow writes, compactions); every call and its answer is recorded with its start and end; then
// porcupine searches for an order of the calls, consistent with real time, in which a single register
// per key would have given exactly those answers. There must be one. The model, the clients and the
// faults are internal/testenv/robustness's; here the transport is Server.Do.
//
// github.com/anishathalye/porcupine earns its place: deciding linearizability is NP-complete in
// general, and porcupine is the checker etcd and Kubernetes' own robustness tests use, with per-key
// partitioning that keeps the search small. Writing a correct one here would be a project of its own.

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/internal/testenv/robustness"
	"kubesim/store"
	"kubesim/wire"
)

// newFaultyServer is an apiserver on the wall clock (injected write latency really waits) over a
// fresh embedded etcd of cfg's members (0: one, in process); the faults are the store's and the
// server's own.
func newFaultyServer(t testing.TB, cfg Config, members int) (*Server, *store.Store) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, store.Config{Members: members})
	require.NoError(t, err)
	cfg.Store, cfg.Clock = st, clock.Real{}
	s := New(cfg)
	require.NoError(t, s.Start(ctx))
	t.Cleanup(func() {
		cancel()
		st.Close()
	})
	s.AddCredential(Credential{Token: adminToken, User: User{Name: "admin", Groups: []string{GroupMasters}}})
	return s, st
}

// registerTransport runs the register's operations on Lease objects in "default" (their "v" label is
// the value) through Server.Do. An error for which unknown is true is an answer that never came; any
// other error a register does not give fails the history.
func registerTransport(s *Server, unknown func(error) bool) robustness.Transport {
	return func(ctx context.Context, _ int, in robustness.Input) (robustness.Output, error) {
		req := wire.Request{Token: adminToken, Resource: "leases", Namespace: "default", Name: in.Key, Quiet: true}
		lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: in.Key, Namespace: "default", Labels: map[string]string{"v": in.Value}}}
		switch in.Op {
		case robustness.Get:
			req.Verb = wire.VerbGet
		case robustness.Create:
			req.Verb, req.Body = wire.VerbCreate, lease
		case robustness.Update:
			req.Verb, req.Body = wire.VerbUpdate, lease
			lease.ResourceVersion = strconv.FormatInt(in.RV, 10)
		case robustness.Delete:
			req.Verb = wire.VerbDelete
		}
		resp, err := s.Do(ctx, &req)
		switch {
		case err == nil:
			m := resp.Object.GetObjectMeta()
			rv, _ := strconv.ParseInt(m.ResourceVersion, 10, 64)
			return robustness.Output{Status: robustness.OK, Value: m.Labels["v"], RV: rv}, nil
		case apierrors.IsNotFound(err):
			return robustness.Output{Status: robustness.NotFound}, nil
		case apierrors.IsAlreadyExists(err):
			return robustness.Output{Status: robustness.Exists}, nil
		case apierrors.IsConflict(err):
			return robustness.Output{Status: robustness.Conflict}, nil
		case unknown != nil && unknown(err):
			return robustness.Output{Status: robustness.Unknown}, nil
		}
		return robustness.Output{}, fmt.Errorf("unexpected error: %w", err)
	}
}

// checkHistories plays one history per seed with run and checks each; it returns the operations
// checked.
func checkHistories(t *testing.T, seeds []int64, run func(t *testing.T, seed int64) []porcupine.Operation) int {
	total := 0
	for _, seed := range seeds {
		t.Run("seed="+strconv.FormatInt(seed, 10), func(t *testing.T) {
			history := run(t, seed)
			counts := robustness.Check(t, history, 20*time.Second)
			require.Positive(t, counts["update/ok"], "some compare-and-swaps must win: %v", counts)
			require.Positive(t, counts["update/conflict"], "and some must lose: %v", counts)
			total += len(history)
			t.Logf("seed %d: %d operations linearizable: %s", seed, len(history), robustness.Summary(counts))
		})
	}
	return total
}

func TestLinearizabilityUnderFaults(t *testing.T) {
	total := checkHistories(t, []int64{1, 2, 3}, func(t *testing.T, seed int64) []porcupine.Operation {
		s, st := newFaultyServer(t, Config{Seed: seed}, 0)
		faultCtx, stopFaults := context.WithCancel(context.Background())
		stop := robustness.InjectFaults(faultCtx, rand.New(rand.NewSource(seed)), st, s.Compact, 20*time.Millisecond)
		history, err := robustness.Run(robustness.RunConfig{Seed: seed, Clients: 8, OpsPerClient: 200, Budget: 4 * time.Second, Overtime: 20 * time.Second,
			Keys: []string{"a", "b", "c"}}, registerTransport(s, nil))
		stopFaults()
		t.Logf("%d compactions during the run", stop())
		require.NoError(t, err)
		return history
	})
	t.Logf("%d operations checked", total)
}

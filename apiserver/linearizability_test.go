package apiserver

// Linearizability, as etcd's robustness suite checks it: clients run concurrent create, get, update
// (compare-and-swap on resourceVersion) and delete against the apiserver while the store is faulted
// (slow writes, compactions); every call and its answer is recorded with its start and end; then
// porcupine searches for an order of the calls, consistent with real time, in which a single register
// per key would have given exactly those answers. There must be one.
//
// github.com/anishathalye/porcupine earns its place: deciding linearizability is NP-complete in
// general, and porcupine is the checker etcd and Kubernetes' own robustness tests use, with per-key
// partitioning that keeps the search small. Writing a correct one here would be a project of its own.

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/wire"
)

// newFaultyServer is an apiserver on the wall clock (injected write latency really waits) over a
// fresh embedded etcd; the faults are the store's and the server's own.
func newFaultyServer(t testing.TB, cfg Config) (*Server, *store.Store) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, store.Config{})
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

// injectFaults slows etcd writes by a random few milliseconds, on and off, and compacts etcd's
// history every compactEvery, until ctx ends; stop waits for it and tells how many compactions it
// made. Like kube-apiserver's compactor, each compaction goes up to the revision the previous one saw
// (compactEvery ago, not 5 minutes), so that a watch keeping up is never compacted away.
func injectFaults(ctx context.Context, rnd *rand.Rand, s *Server, st *store.Store, compactEvery time.Duration) (stop func() int) {
	var wg sync.WaitGroup
	compactions := 0
	var seen int64 // the revision the last compaction saw
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer st.SetWriteLatency(0)
		const every = 5 * time.Millisecond
		tick := time.NewTicker(every)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if rnd.Intn(2) == 0 {
				st.SetWriteLatency(time.Duration(rnd.Intn(4000)) * time.Microsecond)
			} else {
				st.SetWriteLatency(0)
			}
			if i%int(compactEvery/every) == 0 {
				rev, err := st.CurrentRevision(ctx)
				if err == nil && seen > 0 && s.Compact(ctx, seen) == nil {
					compactions++
				}
				seen = rev
			}
		}
	}()
	return func() int {
		wg.Wait()
		return compactions
	}
}

// The register model: one per key. Inputs and outputs are comparable values, so porcupine can
// memoise states.
type regInput struct {
	op    string // create, get, update, delete
	key   string
	value string
	rv    int64 // update: the resourceVersion the write is conditional on
}

type regOutput struct {
	status string // ok, notFound, exists, conflict
	value  string
	rv     int64
}

type regState struct {
	exists bool
	value  string
	rv     int64
	last   int64 // the highest resourceVersion the key has had: etcd revisions only grow
}

var registerModel = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, op := range history {
			k := op.Input.(regInput).key
			byKey[k] = append(byKey[k], op)
		}
		keys := make([]string, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([][]porcupine.Operation, 0, len(keys))
		for _, k := range keys {
			out = append(out, byKey[k])
		}
		return out
	},
	Init: func() any { return regState{} },
	Step: func(state, input, output any) (bool, any) {
		s, in, out := state.(regState), input.(regInput), output.(regOutput)
		written := func() (bool, any) { return true, regState{exists: true, value: in.value, rv: out.rv, last: out.rv} }
		switch in.op + "/" + out.status {
		case "get/ok":
			return s.exists && out.value == s.value && out.rv == s.rv, s
		case "get/notFound", "update/notFound", "delete/notFound":
			return !s.exists, s
		case "create/ok":
			if s.exists || out.rv <= s.last {
				return false, s
			}
			return written()
		case "create/exists":
			return s.exists, s
		case "update/ok":
			if !s.exists || s.rv != in.rv || out.rv <= s.last {
				return false, s
			}
			return written()
		case "update/conflict":
			return s.exists && s.rv != in.rv, s
		case "delete/ok":
			return s.exists && out.rv == s.rv, regState{last: s.last}
		case "delete/conflict":
			// kubesim's delete reads the object, then deletes it only if unchanged: a write in between
			// makes it 409 and changes nothing. (Kubernetes would retry such a delete itself.)
			return true, s
		}
		return false, s
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(regInput), output.(regOutput)
		return fmt.Sprintf("%s %s %s@%d -> %s %s@%d", in.op, in.key, in.value, in.rv, out.status, out.value, out.rv)
	},
}

// registerClient runs random operations on a few Lease objects (their "v" label is the register's
// value) and records each with its start and end.
type registerClient struct {
	id    int
	s     *Server
	rnd   *rand.Rand
	start time.Time
	seen  map[string]int64 // the last resourceVersion this client saw per key
	ops   []porcupine.Operation
}

func (c *registerClient) now() int64 { return int64(time.Since(c.start)) }

func (c *registerClient) step(ctx context.Context, keys []string, n int) error {
	key := keys[c.rnd.Intn(len(keys))]
	in := regInput{key: key, value: fmt.Sprintf("c%d-%d", c.id, n)}
	req := wire.Request{Token: adminToken, Resource: "leases", Namespace: "default", Name: key, Quiet: true}
	lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: key, Namespace: "default", Labels: map[string]string{"v": in.value}}}
	switch r := c.rnd.Intn(10); {
	case r < 3:
		in.op, req.Verb = "get", wire.VerbGet
	case r < 5:
		in.op, req.Verb, req.Body = "create", wire.VerbCreate, lease
	case r < 9:
		in.op, req.Verb, req.Body = "update", wire.VerbUpdate, lease
		in.rv = c.seen[key]
		lease.ResourceVersion = strconv.FormatInt(in.rv, 10)
		if in.rv == 0 {
			lease.ResourceVersion = "1" // never current: a guaranteed conflict, if the key exists
			in.rv = 1
		}
	default:
		in.op, req.Verb = "delete", wire.VerbDelete
	}
	call := c.now()
	resp, err := c.s.Do(ctx, &req)
	ret := c.now()
	var out regOutput
	switch {
	case err == nil:
		out.status = "ok"
		out.value = resp.Object.GetObjectMeta().Labels["v"]
		out.rv, _ = strconv.ParseInt(resp.Object.GetObjectMeta().ResourceVersion, 10, 64)
		c.seen[key] = out.rv
	case apierrors.IsNotFound(err):
		out.status = "notFound"
	case apierrors.IsAlreadyExists(err):
		out.status = "exists"
	case apierrors.IsConflict(err):
		out.status = "conflict"
	default:
		return fmt.Errorf("%s %s: unexpected error: %w", in.op, key, err)
	}
	c.ops = append(c.ops, porcupine.Operation{ClientId: c.id, Input: in, Call: call, Output: out, Return: ret})
	return nil
}

// linearizabilityRun plays one seeded history and returns it with the number of compactions it saw.
// The budget bounds when clients start operations, never an operation itself: a call cut short would
// leave a write whose outcome nobody knows.
func linearizabilityRun(t *testing.T, seed int64, clients, opsPerClient int, budget time.Duration) ([]porcupine.Operation, int) {
	s, st := newFaultyServer(t, Config{Seed: seed})
	faultCtx, stopFaults := context.WithCancel(context.Background())
	stop := injectFaults(faultCtx, rand.New(rand.NewSource(seed)), s, st, 20*time.Millisecond)

	keys := []string{"a", "b", "c"}
	start := time.Now()
	deadline := start.Add(budget)
	cs := make([]*registerClient, clients)
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for i := range cs {
		cs[i] = &registerClient{id: i, s: s, rnd: rand.New(rand.NewSource(seed*100 + int64(i))), start: start, seen: map[string]int64{}}
		wg.Add(1)
		go func(c *registerClient) {
			defer wg.Done()
			for n := 0; n < opsPerClient && time.Now().Before(deadline); n++ {
				if err := c.step(context.Background(), keys, n); err != nil {
					errs <- err
					return
				}
			}
		}(cs[i])
	}
	wg.Wait()
	stopFaults()
	compactions := stop()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var history []porcupine.Operation
	for _, c := range cs {
		history = append(history, c.ops...)
	}
	return history, compactions
}

func TestLinearizabilityUnderFaults(t *testing.T) {
	total := 0
	for _, seed := range []int64{1, 2, 3} {
		t.Run("seed="+strconv.FormatInt(seed, 10), func(t *testing.T) {
			history, compactions := linearizabilityRun(t, seed, 8, 200, 4*time.Second)
			require.NotEmpty(t, history)
			counts := map[string]int{}
			for _, op := range history {
				counts[op.Input.(regInput).op+"/"+op.Output.(regOutput).status]++
			}
			require.Positive(t, counts["update/ok"], "some compare-and-swaps must win: %v", counts)
			require.Positive(t, counts["update/conflict"], "and some must lose: %v", counts)
			res := porcupine.CheckOperationsTimeout(registerModel, history, 20*time.Second)
			require.Equal(t, porcupine.Ok, res, "the history of seed %d is not linearizable", seed)
			total += len(history)
			t.Logf("seed %d: %d operations linearizable (%d compactions during the run): %v", seed, len(history), compactions, counts)
		})
	}
	t.Logf("%d operations checked", total)
}

// The checker is only worth something if it can say no: a read that returns the value an earlier,
// completed update replaced is not linearizable.
func TestRegisterModelRejectsAStaleRead(t *testing.T) {
	op := func(client int, in regInput, call, ret int64, out regOutput) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret}
	}
	history := []porcupine.Operation{
		op(0, regInput{op: "create", key: "a", value: "x"}, 0, 1, regOutput{status: "ok", value: "x", rv: 5}),
		op(0, regInput{op: "update", key: "a", value: "y", rv: 5}, 2, 3, regOutput{status: "ok", value: "y", rv: 6}),
		op(1, regInput{op: "get", key: "a"}, 4, 5, regOutput{status: "ok", value: "x", rv: 5}),
	}
	require.False(t, porcupine.CheckOperations(registerModel, history))
	history[2].Call = 2 // the read overlaps the update: it may be ordered before it
	require.True(t, porcupine.CheckOperations(registerModel, history))
}

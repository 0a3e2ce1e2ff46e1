// run.go: concurrent clients that run seeded random operations through a transport and record each
// call with its start and end, and the check of the history they make.
//
//	Transport   how one operation reaches the apiserver (Server.Do, HTTPS, ...)
//	Run         Clients clients, each OpsPerClient operations or until Budget (and Overtime), on Keys
//	Check       fail the test unless porcupine finds the history linearizable; counts by answer
package robustness

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// A Transport runs one operation as client number client and returns its answer: Unknown for a
// request whose outcome it cannot know, an error for an answer a register never gives (the test
// fails).
type Transport func(ctx context.Context, client int, in Input) (Output, error)

// RunConfig is one history's shape.
type RunConfig struct {
	Seed         int64
	Clients      int
	OpsPerClient int
	// Budget bounds when clients start operations, never an operation itself: a call cut short
	// would leave a write whose outcome nobody knows.
	Budget time.Duration
	// Overtime lets clients go on starting operations past Budget, for at most this long, while the
	// history holds no compare-and-swap that won or none that lost: on a loaded machine whose etcd
	// members are being killed, a few seconds may pass in elections, and a history without both
	// says nothing about them (the tests require both).
	Overtime time.Duration
	Keys     []string
}

// Run plays one seeded history: each client picks its operations from its own source (get 3 in 10,
// create 2, update 4 from the resourceVersion it last saw of the key, delete 1).
func Run(cfg RunConfig, do Transport) ([]porcupine.Operation, error) {
	start := time.Now()
	deadline, overtime := start.Add(cfg.Budget), start.Add(cfg.Budget+cfg.Overtime)
	var won, lost atomic.Bool // an update answered OK, one answered Conflict
	more := func() bool {
		now := time.Now()
		return now.Before(deadline) || now.Before(overtime) && !(won.Load() && lost.Load())
	}
	ops := make([][]porcupine.Operation, cfg.Clients)
	errs := make([]error, cfg.Clients)
	var wg sync.WaitGroup
	for c := range cfg.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(cfg.Seed*100 + int64(c)))
			seen := map[string]int64{} // the last resourceVersion this client saw per key
			for n := 0; n < cfg.OpsPerClient && more(); n++ {
				in := next(rnd, cfg.Keys, seen, fmt.Sprintf("c%d-%d", c, n))
				call := int64(time.Since(start))
				out, err := do(context.Background(), c, in)
				ret := int64(time.Since(start))
				if err != nil {
					errs[c] = fmt.Errorf("client %d: %s %s: %w", c, in.Op, in.Key, err)
					return
				}
				if in.Op == Update {
					switch out.Status {
					case OK:
						won.Store(true)
					case Conflict:
						lost.Store(true)
					}
				}
				switch {
				case out.Status == Unknown:
					ret = math.MaxInt64 // it may take effect at any time from its call on
				case out.Status == OK && in.Op != Delete:
					seen[in.Key] = out.RV
				}
				ops[c] = append(ops[c], porcupine.Operation{ClientId: c, Input: in, Call: call, Output: out, Return: ret})
			}
		}()
	}
	wg.Wait()
	var history []porcupine.Operation
	for _, o := range ops {
		history = append(history, o...)
	}
	for _, err := range errs {
		if err != nil {
			return history, err
		}
	}
	return history, nil
}

// next draws one operation.
func next(rnd *rand.Rand, keys []string, seen map[string]int64, value string) Input {
	in := Input{Key: keys[rnd.Intn(len(keys))], Value: value}
	switch r := rnd.Intn(10); {
	case r < 3:
		in.Op, in.Value = Get, ""
	case r < 5:
		in.Op = Create
	case r < 9:
		in.Op, in.RV = Update, seen[in.Key]
		if in.RV == 0 {
			in.RV = 1 // never current: a sure conflict, if the key exists
		}
	default:
		in.Op, in.Value = Delete, ""
	}
	return in
}

// Check fails t unless porcupine finds history linearizable within timeout, and then leaves an HTML
// visualisation of the history (porcupine's) in the test's output directory or the temporary one.
// It returns the number of operations per "op/answer".
func Check(t testing.TB, history []porcupine.Operation, timeout time.Duration) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, op := range history {
		counts[op.Input.(Input).Op+"/"+op.Output.(Output).Status]++
	}
	res, info := porcupine.CheckOperationsVerbose(Model, history, timeout)
	if res != porcupine.Ok {
		dir := os.Getenv("TEST_UNDECLARED_OUTPUTS_DIR")
		if dir == "" {
			dir = os.TempDir()
		}
		path := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+".html")
		if err := porcupine.VisualizePath(Model, info, path); err != nil {
			path = err.Error()
		}
		t.Fatalf("the history of %d operations is not linearizable (%s); porcupine's view: %s; counts %v",
			len(history), res, path, Summary(counts))
	}
	return counts
}

// Summary prints counts in a stable order.
func Summary(counts map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	return strings.Join(parts, " ")
}

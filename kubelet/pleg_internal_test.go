package kubelet

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

type entry struct {
	id    string
	state int
}

// diffByMap is what the relist did before diffEntries: every entry of both answers in a map.
func diffByMap(old, cur []*entry) []string {
	was := map[string]int{}
	for _, o := range old {
		was[o.id] = o.state
	}
	out := map[string]bool{}
	for _, c := range cur {
		if st, ok := was[c.id]; !ok || st != c.state {
			out[c.id] = true
		}
		delete(was, c.id)
	}
	for id := range was {
		out[id] = true
	}
	return sortedKeys(out)
}

func diffByWalk(old, cur []*entry) []string {
	out := map[string]bool{}
	diffEntries(old, cur, func(e *entry) string { return e.id }, func(a, b *entry) bool { return a.state == b.state },
		func(e *entry) { out[e.id] = true })
	return sortedKeys(out)
}

// The relist's walk finds exactly the differences a map of every entry finds, whenever the runtime
// lists in creation order; when it does not, it reports more, never fewer.
func TestDiffEntriesFindsWhatAMapFinds(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	next := 0
	newEntry := func() *entry { next++; return &entry{id: fmt.Sprint("e", next)} }
	var old []*entry
	for range 2000 {
		// The next answer: some gone, some in a new state (a new entry, as the runtime hands out), some
		// the same pointer, some created since at the end.
		var cur []*entry
		for _, o := range old {
			switch rng.Intn(10) {
			case 0: // gone
			case 1:
				cur = append(cur, &entry{id: o.id, state: o.state + 1})
			case 2:
				cur = append(cur, &entry{id: o.id, state: o.state}) // a new entry, the same state
			default:
				cur = append(cur, o)
			}
		}
		for range rng.Intn(4) {
			cur = append(cur, newEntry())
		}
		want := diffByMap(old, cur)
		assert.Equal(t, want, diffByWalk(old, cur))
		shuffled := slices.Clone(cur)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := diffByWalk(old, shuffled)
		for _, id := range want {
			assert.Contains(t, got, id, "out of order, a difference is still found")
		}
		if len(cur) > 30 {
			cur = cur[len(cur)-10:] // a node whose old pods went
		}
		old = cur
	}
}

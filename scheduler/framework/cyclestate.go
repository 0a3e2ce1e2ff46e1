// cyclestate.go: CycleState, the scratch space of one scheduling cycle. PreFilter and PreScore
// compute something once per pod (the pod's requests, the affinity counts of every topology domain)
// and store it here; Filter and Score, called once per node, read it. Preemption clones it to ask
// "what if" without disturbing the real cycle. Interface: CycleState, StateKey, StateData.
package framework

import "errors"

// StateKey names an entry; by convention a plugin uses "PreFilter" + its name.
type StateKey string

// StateData is what a plugin stores. Clone must return a copy that can be changed independently
// (state that is never changed after PreFilter may return itself).
type StateData interface {
	Clone() StateData
}

// CycleState is written by PreFilter/PreScore, one plugin at a time, and only read by Filter and
// Score, which may run in parallel over nodes: so it needs no lock.
type CycleState struct {
	// data is a short list, searched linearly: a cycle stores a handful of entries and reads them
	// once per plugin per node, where a small slice beats a map's hashing.
	data []stateEntry
	// skipFilter and skipScore mark the plugins whose PreFilter or PreScore returned Skip: bit i is
	// the profile's i-th plugin. (Bits rather than a set of names: Filter asks once per plugin per
	// node, tens of thousands of times a second.)
	skipFilter, skipScore uint64
}

type stateEntry struct {
	key  StateKey
	data StateData
}

// NewCycleState returns an empty state.
func NewCycleState() *CycleState { return &CycleState{} }

// Write stores data under key.
func (c *CycleState) Write(key StateKey, data StateData) {
	for i := range c.data {
		if c.data[i].key == key {
			c.data[i].data = data
			return
		}
	}
	c.data = append(c.data, stateEntry{key, data})
}

// ErrNotFound is Read's error for a key nobody wrote, in Kubernetes' words (fwk.ErrNotFound): a
// plugin that returns it as is shows it to users (see plugins/dynamicresources.go).
var ErrNotFound = errors.New("not found")

// Read returns the data under key, or ErrNotFound.
func (c *CycleState) Read(key StateKey) (StateData, error) {
	for i := range c.data {
		if c.data[i].key == key {
			return c.data[i].data, nil
		}
	}
	return nil, ErrNotFound
}

// Clone copies the state, cloning every entry.
func (c *CycleState) Clone() *CycleState {
	out := &CycleState{data: make([]stateEntry, len(c.data)), skipFilter: c.skipFilter, skipScore: c.skipScore}
	for i, e := range c.data {
		out.data[i] = stateEntry{e.key, e.data.Clone()}
	}
	return out
}

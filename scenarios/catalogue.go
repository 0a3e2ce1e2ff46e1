// catalogue.go: the registry. Each scenario file registers its scenario at init; Lookup and All are
// what `kubesim describe`, `kubesim list` and `kubesim run` read.
package scenarios

import (
	"sort"

	"kubesim/sim"
	"kubesim/trace"
)

var catalogue = map[string]sim.Scenario{}

// catalog is how a scenario file writes its Chinese lines (the ZH field): a trace.Catalog, each
// English format of its step headings and signs mapped to the Chinese one, with the same verbs.
type catalog = trace.Catalog

// register adds a scenario to the catalogue (at init time), its Chinese over the lines scenarios
// share (sharedZH).
func register(s sim.Scenario) {
	if _, dup := catalogue[s.Name]; dup {
		panic("scenarios: registered twice: " + s.Name)
	}
	s.ZH = trace.Merge(sharedZH, s.ZH)
	catalogue[s.Name] = s
}

// Lookup finds a scenario by name.
func Lookup(name string) (sim.Scenario, bool) {
	s, ok := catalogue[name]
	return s, ok
}

// All lists the catalogue, sorted by name.
func All() []sim.Scenario {
	out := make([]sim.Scenario, 0, len(catalogue))
	for _, s := range catalogue {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

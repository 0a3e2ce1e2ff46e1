// catalog.go: translations of trace lines. A package that records trace lines keeps their Chinese
// telling next to the format strings, as a Catalog, and whoever wires the cluster passes every
// catalogue to the narrator: there is no global table, so a changed format whose translation was not
// changed with it is caught by a test, not silently shown in English.
package trace

// Catalog maps an English format string (as passed to Event.Msgf) to its translation, with the same
// verbs in the same order, so numbers and names stay exactly as in English.
type Catalog map[string]string

// Merge returns one catalogue holding every entry of cs; a later catalogue wins where two translate
// the same format.
func Merge(cs ...Catalog) Catalog {
	n := 0
	for _, c := range cs {
		n += len(c)
	}
	out := make(Catalog, n)
	for _, c := range cs {
		for en, tr := range c {
			out[en] = tr
		}
	}
	return out
}

// labels.go is the label map of an object and the read-only view a selector
// matches against. Interface: Labels (Has, Get), Set (Has, Get, String,
// AsSelector).
package labels

import (
	"sort"
	"strings"
)

// Labels is what a Selector reads: the labels of one object. It is an
// interface so a caller can match without copying its map.
type Labels interface {
	// Has reports whether the label is present (possibly with value "").
	Has(label string) bool
	// Get returns the label's value, or "" if it is absent.
	Get(label string) string
}

// Set is a map of labels, as in metadata.labels.
type Set map[string]string

// Has reports whether label is present. A nil Set has no labels.
func (ls Set) Has(label string) bool {
	_, ok := ls[label]
	return ok
}

// Get returns label's value, or "" if it is absent.
func (ls Set) Get(label string) string { return ls[label] }

// String returns the labels as "key=value" pairs sorted by key and joined by
// commas, which is also selector syntax: Parse(s.String()) selects s.
func (ls Set) String() string {
	keys := make([]string, 0, len(ls))
	for k := range ls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(ls[k])
	}
	return b.String()
}

// AsSelector returns a selector that requires every label in ls, as a
// Service's spec.selector does. An empty set selects everything.
func (ls Set) AsSelector() Selector { return SelectorFromSet(ls) }

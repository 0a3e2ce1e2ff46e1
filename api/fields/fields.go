// fields.go is the view of an object's selectable fields that a field
// selector matches against. Interface: Fields (Has, Get), Set (Has, Get,
// String, AsSelector).
//
// In Kubernetes each resource exposes a few fields for selection
// (metadata.name, metadata.namespace, and per kind ones such as a pod's
// spec.nodeName and status.phase); the apiserver builds a Set of them for
// each object and matches the selector against it.
package fields

// Fields is what a Selector reads: the selectable fields of one object.
type Fields interface {
	// Has reports whether the field is present.
	Has(field string) bool
	// Get returns the field's value, or "" if it is absent.
	Get(field string) string
}

// Set is a map of field path to value, such as
// {"metadata.name": "web-0", "spec.nodeName": "node-1"}.
type Set map[string]string

// Has reports whether field is present.
func (ls Set) Has(field string) bool {
	_, ok := ls[field]
	return ok
}

// Get returns field's value, or "" if it is absent.
func (ls Set) Get(field string) string { return ls[field] }

// String returns the set as selector syntax, "field=value" pairs sorted by
// field with values escaped, so ParseSelector(s.String()) selects s.
// (Kubernetes does not escape here; kubesim does so that the round trip
// holds for every value.)
func (ls Set) String() string { return SelectorFromSet(ls).String() }

// AsSelector returns a selector requiring every field in ls.
func (ls Set) AsSelector() Selector { return SelectorFromSet(ls) }

// path.go: Path, the address of a field inside an object (NewPath, Child, Index, Key, String).
package field

import "strconv"

// Path is one step of a field address, linked to the step before it. Paths are immutable: Child,
// Index and Key return a new Path and never change the receiver, so a validator can hand the same
// parent to many children.
//
// Validation builds a path for every field it visits and renders one only for a field in error. So
// that the others cost nothing, Child, Index and Key are small enough to inline and nothing here
// keeps a path it is handed (String renders without holding on to one): a validator that keeps
// its paths to itself too gets them on its stack, not the heap. That is why Child takes one name,
// where Kubernetes' takes several (p.Child("template").Child("spec") for its
// p.Child("template").Child("spec")): descending through a list of names needs a loop, and a path made in
// a loop and linked to the next outlives the loop.
type Path struct {
	name   string // a field name; empty when this step is an index or key
	index  string // "0" or "cpu"; used when name is empty
	parent *Path
}

// NewPath starts a path at a top-level field, then descends through more fields:
// NewPath("spec", "template") is spec.template.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, n := range more {
		p = &Path{name: n, parent: p}
	}
	return p
}

// Child descends into a named field: p.Child("template").
func (p *Path) Child(name string) *Path {
	return &Path{name: name, parent: p}
}

// Index descends into a list element: containers[0].
func (p *Path) Index(i int) *Path {
	return &Path{index: strconv.Itoa(i), parent: p}
}

// Key descends into a map entry: resources.limits[cpu]. Kubernetes writes the key without quotes.
func (p *Path) Key(key string) *Path {
	return &Path{index: key, parent: p}
}

// String renders the path as Kubernetes does in messages and in StatusCause.field:
// spec.template.spec.containers[0].resources.limits[cpu]. A nil path renders as "<nil>".
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	// Measure, then fill from the last step back to the first.
	n := 0
	for s := p; s != nil; s = s.parent {
		if s.name == "" {
			n += len(s.index) + 2 // [index]
		} else if n += len(s.name); s.parent != nil {
			n++ // the dot before it
		}
	}
	b := make([]byte, n)
	for s := p; s != nil; s = s.parent {
		if s.name == "" {
			n--
			b[n] = ']'
			n -= len(s.index)
			copy(b[n:], s.index)
			n--
			b[n] = '['
			continue
		}
		n -= len(s.name)
		copy(b[n:], s.name)
		if s.parent != nil {
			n--
			b[n] = '.'
		}
	}
	return string(b)
}

// path.go: Path, the address of a field inside an object (NewPath, Child, Index, Key, String).
package field

import (
	"strconv"
	"strings"
)

// Path is one step of a field address, linked to the step before it. Paths are immutable: Child,
// Index and Key return a new Path and never change the receiver, so a validator can hand the same
// parent to many children.
type Path struct {
	name   string // a field name; empty when this step is an index or key
	index  string // "0" or "cpu"; used when name is empty
	parent *Path
}

// NewPath starts a path at a top-level field, then descends through more fields:
// NewPath("spec", "template") is spec.template.
func NewPath(name string, more ...string) *Path {
	return (&Path{name: name}).childAll(more)
}

func (p *Path) childAll(names []string) *Path {
	for _, n := range names {
		p = &Path{name: n, parent: p}
	}
	return p
}

// Child descends into one or more named fields: p.Child("template", "spec").
func (p *Path) Child(name string, more ...string) *Path {
	return (&Path{name: name, parent: p}).childAll(more)
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
	var steps []*Path
	for s := p; s != nil; s = s.parent {
		steps = append(steps, s)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if s.name == "" {
			b.WriteByte('[')
			b.WriteString(s.index)
			b.WriteByte(']')
			continue
		}
		if s.parent != nil {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

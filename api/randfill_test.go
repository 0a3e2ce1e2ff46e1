// randfill_test.go: shapeFiller, the random filling of any value that the tests of the generated code
// share (generated_test.go for copies and equality, encode_test.go for JSON): nil, empty (with room
// past its end or not) and filled slices and maps, nil and non-nil pointers, struct fields left zero
// or set. What goes in the leaves (strings, numbers, quantities, times) is each test's own: equality
// wants few values, so that independent ones are sometimes equal; JSON wants awkward ones.
package api

import (
	"math/rand/v2"
	"reflect"
)

// shapeFiller fills values with random shapes, and their leaves through leaf.
type shapeFiller struct {
	r        *rand.Rand
	maxDepth int // past it pointers, slices and maps stay nil, so that a recursive type ends
	// leaf sets v, a settable value of a type it knows as a whole (a string, a quantity, a time),
	// and reports whether it did; fill takes apart every other type.
	leaf func(v reflect.Value) bool
}

// fill sets v, a settable value, to random content.
func (f shapeFiller) fill(v reflect.Value, depth int) {
	if f.leaf(v) {
		return
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.Pointer:
		if depth > f.maxDepth || f.r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := f.r.IntN(5); {
		case depth > f.maxDepth || n == 0:
			v.SetZero()
		case n == 1:
			v.Set(reflect.MakeSlice(t, 0, f.r.IntN(2))) // empty, not nil; with room past its end or not
		default:
			s := reflect.MakeSlice(t, n-1, n-1+f.r.IntN(2))
			for i := range s.Len() {
				f.fill(s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		switch n := f.r.IntN(5); {
		case depth > f.maxDepth || n == 0:
			v.SetZero()
		case n == 1:
			v.Set(reflect.MakeMap(t))
		default:
			m := reflect.MakeMap(t)
			for range n - 1 {
				k, e := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
				f.fill(k, depth+1)
				f.fill(e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && f.r.IntN(6) > 0 { // some fields stay zero
				f.fill(v.Field(i), depth+1)
			}
		}
	}
}

// newFilled returns a pointer to a random value of t.
func (f shapeFiller) newFilled(t reflect.Type) reflect.Value {
	p := reflect.New(t)
	f.fill(p.Elem(), 0)
	return p
}

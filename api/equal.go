// equal.go: Equal, reflect.DeepEqual for API values without its allocations. reflect.DeepEqual
// guards against cycles with a map of the pointers it has visited, made on every call and grown on
// every pointer, slice or map it meets; API objects have no cycles, so Equal needs no such map. Like
// the copies (deepcopy.go), equality is generated code (zz_generated.copy.go) for every type
// reachable from the registered kinds, and for any other type, or when the generated file is absent
// or stale, an equality function derived by reflection once per Go type and cached: a new kind
// still works without regenerating, only slower. The apiserver's watch cache compares each pod it
// keeps with its controller's last one (apiserver/share.go): the comparison is on every write's
// path.
package api

import (
	"maps"
	"reflect"
	"slices"
)

// generatedEqual, registered by the generated code's init, compares *a and *b (a and b being *T of
// one type T) if the generator covered T, and reports whether it did. Nil without the generated file.
var generatedEqual func(a, b any) (equal, ok bool)

// Equal reports whether *a and *b are deeply equal exactly as reflect.DeepEqual(*a, *b) says: the
// same values and the same shape (a nil slice or map is not equal to an empty one; a float NaN is not
// equal to itself), unexported fields included. T must not hold cycles (no API type does). It takes
// pointers so that comparing costs no allocation: a value of T would have to be copied to the heap
// to be looked at by reflection.
func Equal[T any](a, b *T) bool {
	if generatedEqual != nil {
		if eq, ok := generatedEqual(a, b); ok {
			return eq
		}
	}
	return reflectEqual(a, b)
}

// reflectEqual is Equal by reflection alone.
func reflectEqual[T any](a, b *T) bool {
	return equalFor(reflect.TypeFor[T]())(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem())
}

// reflectEqualValues is reflectEqual(&x, &y), for the generated code to compare what it cannot
// field by field: the unexported fields of another package's struct (resource.Quantity, time.Time)
// and a field of a type it does not cover. It takes copies because what reflection is given the
// address of is moved to the heap: passing it the addresses of the generated code's own values
// would allocate them on every call (a ResourceList's quantities, as it ranges over them), when
// the fallback is seldom taken.
func reflectEqualValues[T any](x, y T) bool { return reflectEqual(&x, &y) }

// sameMap reports whether x and y are the very same map, which reflect.DeepEqual calls equal without
// looking at its entries (a shortcut that also decides the answer for a map holding a NaN).
func sameMap[M ~map[K]V, K comparable, V any](x, y M) bool {
	return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
}

// An equality compares two values of one type.
type equality func(a, b reflect.Value) bool

// equalities holds every type's equality.
var equalities = typeFuncs[equality]{viaSlot: func(slot *equality) equality {
	return func(x, y reflect.Value) bool { return (*slot)(x, y) }
}}

func equalFor(t reflect.Type) equality {
	return equalities.get(t, func(b *typeBuild[equality]) func(reflect.Type) equality { return equalityBuild{b}.makeLocked })
}

// equalityBuild is one construction of equalities (typeBuild), as copierBuild is of copiers.
type equalityBuild struct{ *typeBuild[equality] }

func (b equalityBuild) equalityLocked(t reflect.Type) equality { return b.build(t, b.makeLocked) }

func (b equalityBuild) makeLocked(t reflect.Type) equality {
	switch t {
	case stringMapType: // labels, selectors, annotations: the common case, without reflection
		return func(x, y reflect.Value) bool {
			if !x.CanInterface() || !y.CanInterface() { // in an unexported field
				return equalMaps(x, y, equalStrings)
			}
			m, n := x.Interface().(map[string]string), y.Interface().(map[string]string)
			return (m == nil) == (n == nil) && maps.Equal(m, n)
		}
	case stringsType:
		return func(x, y reflect.Value) bool {
			if !x.CanInterface() || !y.CanInterface() {
				return equalSlices(x, y, equalStrings)
			}
			s, u := x.Interface().([]string), y.Interface().([]string)
			return (s == nil) == (u == nil) && slices.Equal(s, u)
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(x, y reflect.Value) bool { return x.Bool() == y.Bool() }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(x, y reflect.Value) bool { return x.Int() == y.Int() }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(x, y reflect.Value) bool { return x.Uint() == y.Uint() }
	case reflect.Float32, reflect.Float64:
		return func(x, y reflect.Value) bool { return x.Float() == y.Float() }
	case reflect.Complex64, reflect.Complex128:
		return func(x, y reflect.Value) bool { return x.Complex() == y.Complex() }
	case reflect.String:
		return equalStrings
	case reflect.Pointer:
		elem := b.equalityLocked(t.Elem())
		return func(x, y reflect.Value) bool {
			if x.IsNil() || y.IsNil() {
				return x.IsNil() == y.IsNil()
			}
			return x.UnsafePointer() == y.UnsafePointer() || elem(x.Elem(), y.Elem())
		}
	case reflect.Slice:
		elem := b.equalityLocked(t.Elem())
		return func(x, y reflect.Value) bool { return equalSlices(x, y, elem) }
	case reflect.Array:
		elem := b.equalityLocked(t.Elem())
		return func(x, y reflect.Value) bool {
			for i := range x.Len() {
				if !elem(x.Index(i), y.Index(i)) {
					return false
				}
			}
			return true
		}
	case reflect.Map:
		elem := b.equalityLocked(t.Elem())
		return func(x, y reflect.Value) bool { return equalMaps(x, y, elem) }
	case reflect.Interface:
		return func(x, y reflect.Value) bool {
			if x.IsNil() || y.IsNil() {
				return x.IsNil() == y.IsNil()
			}
			x, y = x.Elem(), y.Elem()
			return x.Type() == y.Type() && equalFor(x.Type())(x, y) // at compare time, outside any build
		}
	case reflect.Struct:
		type fieldEquality struct {
			index int
			equal equality
		}
		fields := make([]fieldEquality, t.NumField())
		for i := range fields {
			fields[i] = fieldEquality{i, b.equalityLocked(t.Field(i).Type)}
		}
		return func(x, y reflect.Value) bool {
			for _, f := range fields {
				if !f.equal(x.Field(f.index), y.Field(f.index)) {
					return false
				}
			}
			return true
		}
	}
	// Channels, functions, unsafe pointers: reflect.DeepEqual calls two nil functions equal and
	// compares channels by identity.
	return func(x, y reflect.Value) bool {
		if t.Kind() == reflect.Func {
			return x.IsNil() && y.IsNil()
		}
		return x.UnsafePointer() == y.UnsafePointer()
	}
}

func equalStrings(x, y reflect.Value) bool { return x.String() == y.String() }

func equalSlices(x, y reflect.Value, elem equality) bool {
	if x.IsNil() != y.IsNil() || x.Len() != y.Len() {
		return false
	}
	if x.UnsafePointer() == y.UnsafePointer() {
		return true
	}
	for i := range x.Len() {
		if !elem(x.Index(i), y.Index(i)) {
			return false
		}
	}
	return true
}

func equalMaps(x, y reflect.Value, elem equality) bool {
	if x.IsNil() != y.IsNil() || x.Len() != y.Len() {
		return false
	}
	if x.UnsafePointer() == y.UnsafePointer() {
		return true
	}
	iter := x.MapRange()
	for iter.Next() {
		v := y.MapIndex(iter.Key())
		if !v.IsValid() || !elem(iter.Value(), v) {
			return false
		}
	}
	return true
}

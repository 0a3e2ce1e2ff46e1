// specstatus.go: the split of an object into metadata, spec and status that the apiserver's
// strategies rely on. Interface: SpecEqual, CopyStatus.
//
// In Kubernetes a write to the main resource ignores status, and a write to the status subresource
// changes only status (the strategies' PrepareForUpdate); and metadata.generation, where the kind
// keeps one, is bumped when the spec changes (generation.go), so that status.observedGeneration can
// tell a controller it has seen the latest spec. kubesim finds the parts by reflection: "spec" is
// every field other than TypeMeta, ObjectMeta and Status, which also covers kinds whose desired
// state is not under a spec field (a Role's rules, a PriorityClass's value).
package api

import (
	"reflect"
	"sync"
)

// objectLayout records which struct fields of a kind are spec and which one is status.
type objectLayout struct {
	spec   []int // indexes of the spec fields
	status int   // index of the Status field, or -1
}

var layouts sync.Map // reflect.Type (the struct type) -> *objectLayout

func layoutOf(t reflect.Type) *objectLayout {
	if l, ok := layouts.Load(t); ok {
		return l.(*objectLayout)
	}
	l := &objectLayout{status: -1}
	for i := range t.NumField() {
		switch f := t.Field(i); {
		case f.Name == "Status":
			l.status = i
		case f.Anonymous && (f.Type == reflect.TypeFor[TypeMeta]() || f.Type == reflect.TypeFor[ObjectMeta]()):
		case f.IsExported():
			l.spec = append(l.spec, i)
		}
	}
	layouts.Store(t, l)
	return l
}

// structOf returns the struct an Object points to, or false for a nil pointer.
func structOf(obj Object) (reflect.Value, bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return v.Elem(), true
}

// CopyStatus sets dst's status to a deep copy of src's. It returns false, changing nothing, if the
// kind has no status or dst and src are of different kinds.
func CopyStatus(dst, src Object) bool { return setStatus(dst, src, true) }

// TakeStatus is CopyStatus without the copy: dst's status becomes src's, sharing every map, slice and
// pointer under it. For a src whose owner gives it away (nothing else refers to it or will change it).
func TakeStatus(dst, src Object) bool { return setStatus(dst, src, false) }

func setStatus(dst, src Object, deep bool) bool {
	d, ok1 := structOf(dst)
	s, ok2 := structOf(src)
	if !ok1 || !ok2 || d.Type() != s.Type() {
		return false
	}
	i := layoutOf(d.Type()).status
	if i < 0 {
		return false
	}
	f := d.Field(i)
	f.Set(s.Field(i))
	if c := copierFor(f.Type()); deep && c != nil {
		c(f)
	}
	return true
}

// SpecEqual reports whether a and b have the same desired state: every field other than TypeMeta,
// ObjectMeta and Status is semantically equal. Objects of different kinds are never equal.
//
// Equality is Kubernetes' "semantic" equality (apimachinery's equality.Semantic): a nil and an empty
// slice or map are equal, and quantities and times compare by value, so "1" and "1000m" cpu are equal.
func SpecEqual(a, b Object) bool {
	va, ok1 := structOf(a)
	vb, ok2 := structOf(b)
	if !ok1 || !ok2 || va.Type() != vb.Type() {
		return false
	}
	for _, i := range layoutOf(va.Type()).spec {
		if !semanticEqual(va.Field(i), vb.Field(i)) {
			return false
		}
	}
	return true
}

// equalMethod caches, per type, its Equal(T) bool method if it has one (resource.Quantity,
// time.Time); the zero Method means none.
var equalMethods sync.Map // reflect.Type -> reflect.Method

func equalMethod(t reflect.Type) (reflect.Method, bool) {
	if m, ok := equalMethods.Load(t); ok {
		return m.(reflect.Method), m.(reflect.Method).Func.IsValid()
	}
	m, ok := t.MethodByName("Equal")
	if !ok || m.Type.NumIn() != 2 || m.Type.In(1) != t || m.Type.NumOut() != 1 || m.Type.Out(0).Kind() != reflect.Bool {
		m = reflect.Method{}
	}
	equalMethods.Store(t, m)
	return m, m.Func.IsValid()
}

func semanticEqual(a, b reflect.Value) bool {
	t := a.Type()
	if m, ok := equalMethod(t); ok {
		return m.Func.Call([]reflect.Value{a, b})[0].Bool()
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if t.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return false
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		iter := a.MapRange()
		for iter.Next() {
			other := b.MapIndex(iter.Key())
			if !other.IsValid() || !semanticEqual(iter.Value(), other) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				// A struct with private state and no Equal method: only identical values are equal.
				return reflect.DeepEqual(a.Interface(), b.Interface())
			}
		}
		for i := range t.NumField() {
			if !semanticEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Equal(b)
}

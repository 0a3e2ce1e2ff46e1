// deepcopy.go: DeepCopy and Detach, the deep copies that Kubernetes generates per type
// (zz_generated.deepcopy.go). kubesim generates them too (zz_generated.copy.go, written by
// internal/copygen) for every type reachable from the registered kinds, and uses that code when it
// is present. Any other type, or every type when the generated file is absent or does not yet know
// a kind, is copied by a copier derived by reflection once per Go type and cached: adding a kind
// still works without regenerating, only slower, which matters because the apiserver copies every
// object it caches.
//
// Why copies matter: objects in an informer's cache are shared by every reader. A controller that
// changes one in place corrupts the cache for everyone ("never modify objects from the cache"), so it
// copies first. The copy must therefore share no map, slice or pointer with the original.
package api

import (
	"reflect"
)

//go:generate go run -tags apigen kubesim/internal/copygen -o zz_generated.copy.go

// The generated code registers its functions in these hooks from its init. Each reports false for
// a type it does not cover, which then takes the reflective path. They are nil when the generated
// file is absent: package api must compile and work without it, because the generator imports
// package api, and builds it with the tag apigen, which leaves the generated files out.
var (
	// generatedDeepCopy returns a deep copy of obj, a pointer to a kind the generator covered.
	generatedDeepCopy func(obj Object) (Object, bool)
	// generatedDetach detaches *v, v being a *T for a type T the generator covered.
	generatedDetach func(v any) bool
)

// DeepCopy returns a copy of obj that shares no mutable memory with it. A nil obj is returned as is.
func DeepCopy[T Object](obj T) T {
	if generatedDeepCopy != nil {
		if c, ok := generatedDeepCopy(obj); ok {
			return c.(T)
		}
	}
	return reflectDeepCopy(obj)
}

// reflectDeepCopy is DeepCopy by reflection alone.
func reflectDeepCopy[T Object](obj T) T {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return obj
	}
	out := reflect.New(v.Elem().Type())
	out.Elem().Set(v.Elem())
	if fix := copierFor(v.Elem().Type()); fix != nil {
		fix(out.Elem())
	}
	return out.Interface().(T)
}

// Detach gives *v copies of its own of the maps, slices and pointees it holds, so that it shares no
// mutable memory with anything: DeepCopy for a value that is not an object (the containers of a pod,
// its labels).
func Detach[T any](v *T) {
	if generatedDetach != nil && generatedDetach(v) {
		return
	}
	reflectDetach(v)
}

// reflectDetach is Detach by reflection alone. The generated code also calls it for a field whose
// type it does not cover (an interface, say).
func reflectDetach[T any](v *T) {
	if c := copierFor(reflect.TypeFor[T]()); c != nil {
		c(reflect.ValueOf(v).Elem())
	}
}

// copyWith returns a copy of *v detached by detach, or nil for a nil v: the generated DeepCopy of
// a kind.
func copyWith[T any](v *T, detach func(*T)) *T {
	if v == nil {
		return nil
	}
	c := *v
	detach(&c)
	return &c
}

// A copier takes a settable value that was copied by assignment, and so still shares the maps,
// slices and pointees of the original, and replaces each of those with a copy of its own. A nil
// copier means assignment alone already made an independent copy (strings, numbers, plain structs).
type copier func(v reflect.Value)

// copiers holds every type's copier (possibly nil: a type with nothing to copy deeply).
var copiers = typeFuncs[copier]{viaSlot: func(slot *copier) copier { return func(v reflect.Value) { (*slot)(v) } }}

// copierFor returns the copier of t, building and caching it on first use.
func copierFor(t reflect.Type) copier {
	return copiers.get(t, func(b *typeBuild[copier]) func(reflect.Type) copier { return copierBuild{b}.makeLocked })
}

// copierBuild is one construction of copiers (typeBuild): a copier of a type built of others builds
// theirs through it.
type copierBuild struct{ *typeBuild[copier] }

func (b copierBuild) copierLocked(t reflect.Type) copier { return b.build(t, b.makeLocked) }

var (
	stringMapType = reflect.TypeFor[map[string]string]()
	stringsType   = reflect.TypeFor[[]string]()
)

func (b copierBuild) makeLocked(t reflect.Type) copier {
	// A type that knows how to copy itself (resource.ResourceList) is trusted to do so.
	// A nil one stays nil, as generated DeepCopy methods keep it, without the cost of a call through
	// reflection (every container's empty limits and requests).
	if m, ok := t.MethodByName("DeepCopy"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 && m.Type.Out(0) == t {
		nilable := t.Kind() == reflect.Map || t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer
		return func(v reflect.Value) {
			if nilable && v.IsNil() {
				return
			}
			v.Set(m.Func.Call([]reflect.Value{v})[0])
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := b.copierLocked(t.Elem())
		return func(v reflect.Value) {
			if v.IsNil() {
				return
			}
			p := reflect.New(t.Elem())
			p.Elem().Set(v.Elem())
			if elem != nil {
				elem(p.Elem())
			}
			v.Set(p)
		}
	case reflect.Slice:
		if t == stringsType { // labels' values, finalizers, verbs: the common case, without reflection
			return func(v reflect.Value) {
				if !v.IsNil() {
					// Not append([]string(nil), s...), which makes an empty slice nil.
					s := v.Interface().([]string)
					v.Set(reflect.ValueOf(append(make([]string, 0, len(s)), s...)))
				}
			}
		}
		elem := b.copierLocked(t.Elem())
		return func(v reflect.Value) {
			if v.IsNil() {
				return
			}
			s := reflect.MakeSlice(t, v.Len(), v.Len())
			reflect.Copy(s, v)
			if elem != nil {
				for i := range s.Len() {
					elem(s.Index(i))
				}
			}
			v.Set(s)
		}
	case reflect.Map:
		if t == stringMapType { // labels, annotations, selectors
			return func(v reflect.Value) {
				if v.IsNil() {
					return
				}
				src := v.Interface().(map[string]string)
				dst := make(map[string]string, len(src))
				for k, s := range src {
					dst[k] = s
				}
				v.Set(reflect.ValueOf(dst))
			}
		}
		elem := b.copierLocked(t.Elem())
		return func(v reflect.Value) {
			if v.IsNil() {
				return
			}
			m := reflect.MakeMapWithSize(t, v.Len())
			iter := v.MapRange()
			for iter.Next() {
				val := iter.Value()
				if elem != nil {
					tmp := reflect.New(t.Elem()).Elem()
					tmp.Set(val)
					elem(tmp)
					val = tmp
				}
				m.SetMapIndex(iter.Key(), val)
			}
			v.Set(m)
		}
	case reflect.Array:
		elem := b.copierLocked(t.Elem())
		if elem == nil {
			return nil
		}
		return func(v reflect.Value) {
			for i := range v.Len() {
				elem(v.Index(i))
			}
		}
	case reflect.Interface:
		return func(v reflect.Value) {
			if v.IsNil() {
				return
			}
			dyn := v.Elem()
			tmp := reflect.New(dyn.Type()).Elem()
			tmp.Set(dyn)
			if c := copierFor(dyn.Type()); c != nil { // at copy time, outside any build
				c(tmp)
			}
			v.Set(tmp)
		}
	case reflect.Struct:
		// Only exported fields are visited. Unexported fields keep what assignment gave them, which is
		// right for the value-like types that have them (time.Time, resource.Quantity).
		type fieldCopier struct {
			index int
			copy  copier
		}
		var fields []fieldCopier
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if c := b.copierLocked(f.Type); c != nil {
				fields = append(fields, fieldCopier{i, c})
			}
		}
		if len(fields) == 0 {
			return nil
		}
		return func(v reflect.Value) {
			for _, f := range fields {
				f.copy(v.Field(f.index))
			}
		}
	}
	// Numbers, strings and bools are copied by assignment; channels and functions are shared.
	return nil
}

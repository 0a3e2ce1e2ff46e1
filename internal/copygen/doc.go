// Command copygen writes api/zz_generated.copy.go: the deep copy (Detach, DeepCopy) and the
// equality (Equal, exactly reflect.DeepEqual) of every type reachable from the registered kinds, as
// plain Go code, one function per type, where package api otherwise derives them by reflection.
// Kubernetes generates the same from its types with deepcopy-gen.
//
// Run it through go generate, from the module's root:
//
//	go generate ./api
//
// which runs `go run -tags apigen kubesim/internal/copygen -o zz_generated.copy.go` in api/ (the
// directive is in api/deepcopy.go). copygen imports package api and finds the types by reflection:
// every kind of api.Resources(), and every type reachable from them through fields, element, key
// and pointee types. Package api compiles without the generated files (this one only registers its
// functions in hooks that api/deepcopy.go and api/equal.go consult before their reflective
// fallback), and the tag apigen leaves them out (both generated files say //go:build !apigen), so a
// generated file gone stale after a change of type does not stop either generator.
//
// What is generated, for each struct type of package api and each slice, map, pointer or array
// type reached, and for the named types of other packages reached (resource.Quantity,
// resource.ResourceList, time.Time):
//
//   - detachT(v *T), which gives a *v copied by assignment copies of its own of the maps, slices and
//     pointees it shares, doing what the reflective copier of api/deepcopy.go does: exported fields
//     only, a type's own DeepCopy method where it has one, nil kept nil, a slice's capacity equal
//     to its length. A type that assignment alone copies fully has none.
//   - equalT(a, b *T) bool, which says what reflect.DeepEqual(*a, *b) says: a nil slice or map is
//     not an empty one, the same pointer, slice array or map is equal to itself without a look
//     inside, unexported fields count. Another package's struct, whose unexported fields code in
//     package api cannot read, is equal when == says so (the same values, pointers identical) and
//     otherwise as reflection says.
//
// A field of a type the generator does not cover (an interface, a function, an anonymous struct, a
// generic type) is copied and compared by the reflective functions, so the generated code is
// exact for every field. The output is sorted by type and formatted with go/format, so running it
// twice writes the same bytes; the test of this package fails when api/zz_generated.copy.go
// differs from what it would write.
package main

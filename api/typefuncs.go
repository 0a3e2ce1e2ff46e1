// typefuncs.go: the cache that both reflective helpers (the copiers of deepcopy.go and the
// equalities of equal.go) keep their per-type functions in, and the recursion-safe way they build them.
// They serve the types the generated code (zz_generated.copy.go) does not cover.
package api

import (
	"reflect"
	"sync"
)

// typeFuncs holds one function of kind F per Go type, built on first use and kept for good.
type typeFuncs[F any] struct {
	mu    sync.Mutex // serialises building; built functions are read without it
	built sync.Map   // reflect.Type -> F (possibly nil); only complete ones are stored
	// viaSlot is a function that calls the one slot will hold: how a recursive type refers to its
	// own function while that is being built.
	viaSlot func(slot *F) F
}

// get returns t's function, built on first use under fs.mu by the maker that builder gives for
// a new construction (and that maker builds what it needs through the same construction).
func (fs *typeFuncs[F]) get(t reflect.Type, builder func(*typeBuild[F]) func(reflect.Type) F) F {
	if f, ok := fs.built.Load(t); ok {
		return f.(F)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	b := &typeBuild[F]{fs: fs, building: map[reflect.Type]*F{}}
	return b.build(t, builder(b))
}

// typeBuild is one construction under fs.mu. building holds the types whose function is under
// construction, so that a recursive type refers to its own function through a slot filled in later.
// Once that has happened (recursive), a function is only published when the outermost one is
// complete, so no reader can reach an unfilled slot.
type typeBuild[F any] struct {
	fs        *typeFuncs[F]
	building  map[reflect.Type]*F
	recursive bool
}

// build returns t's function: the cached one, the slot's stand-in while t is being built, or a new
// one from make.
func (b *typeBuild[F]) build(t reflect.Type, make func(reflect.Type) F) F {
	if f, ok := b.fs.built.Load(t); ok {
		return f.(F)
	}
	if slot, ok := b.building[t]; ok {
		// Recursion only happens through a pointer, slice or map, so the stand-in is needed.
		b.recursive = true
		return b.fs.viaSlot(slot)
	}
	slot := new(F)
	b.building[t] = slot
	*slot = make(t)
	delete(b.building, t)
	if !b.recursive || len(b.building) == 0 {
		b.fs.built.Store(t, *slot)
	}
	return *slot
}

// generated_test.go: the generated Detach, DeepCopy and Equal (zz_generated.copy.go) against their
// references, on random values of every kind and of every type reachable from the kinds: the copy
// is what the reflective copier makes and shares nothing with the original, and the equality says
// what reflect.DeepEqual says. Also: a type the generator did not cover, and a package without the
// generated file, still take the reflective path.
package api

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api/resource"
)

var (
	randQuantityType = reflect.TypeFor[resource.Quantity]()
	randTimeType     = reflect.TypeFor[time.Time]()
)

// randFiller fills values with random content of every shape a field can have (shapeFiller), from
// few strings, numbers, quantities and times, so that independently filled values are sometimes
// equal.
type randFiller struct{ shapeFiller }

func newRandFiller(seed uint64) randFiller {
	r := rand.New(rand.NewPCG(seed, 1))
	return randFiller{shapeFiller{r: r, maxDepth: 6, leaf: func(v reflect.Value) bool { return randLeaf(r, v) }}}
}

var (
	randStrings    = []string{"", "a", "b", "web", "kube-system"}
	randQuantities = []string{"0", "1", "1000m", "100m", "128Mi", "1Gi", "1.5", "10G",
		"10000000000.000000001"} // the last one held in a big.Int: two parsings of it are not ==, but deeply equal
)

// randLeaf sets v if it is a leaf: a quantity, a time, a string, a bool or a number.
func randLeaf(r *rand.Rand, v reflect.Value) bool {
	switch t := v.Type(); {
	case t == randQuantityType:
		v.Set(reflect.ValueOf(resource.MustParse(randQuantities[r.IntN(len(randQuantities))])))
	case t == randTimeType:
		tm := time.Date(2026, 1, 1, 0, 0, r.IntN(3), r.IntN(2)*1000, time.UTC)
		if r.IntN(8) == 0 {
			tm = tm.In(time.FixedZone("X", 3600)) // the same instant, another location
		}
		v.Set(reflect.ValueOf(tm))
	case t.Kind() == reflect.String:
		v.SetString(randStrings[r.IntN(len(randStrings))])
	case t.Kind() == reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case v.CanInt():
		v.SetInt(int64(r.IntN(3)))
	case v.CanUint():
		v.SetUint(uint64(r.IntN(3)))
	case v.CanFloat():
		v.SetFloat(float64(r.IntN(3)))
	default:
		return false
	}
	return true
}

// reachableTypes returns the kinds' struct types and every struct, pointer, slice and map type
// reachable from them through fields, the types the generator covers.
func reachableTypes() []reflect.Type {
	seen := map[reflect.Type]bool{}
	var types []reflect.Type
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Struct:
			types = append(types, t)
			if t.PkgPath() == reflect.TypeFor[Pod]().PkgPath() {
				for i := range t.NumField() {
					walk(t.Field(i).Type)
				}
			}
		case reflect.Pointer, reflect.Slice, reflect.Array:
			types = append(types, t)
			walk(t.Elem())
		case reflect.Map:
			types = append(types, t)
			walk(t.Key())
			walk(t.Elem())
		}
	}
	for _, r := range Resources() {
		walk(reflect.TypeOf(r.NewObject()).Elem())
	}
	slices.SortFunc(types, func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) })
	return types
}

// requireGenerated stops a test of the generated code where there is none.
func requireGenerated(t *testing.T) {
	t.Helper()
	if generatedDeepCopy == nil || generatedDetach == nil || generatedEqual == nil {
		t.Fatal("zz_generated.copy.go is missing: run go generate ./api")
	}
}

// sharedPodParts are the parts of a pod the apiserver compares and copies (apiserver/share.go): the
// generated code must cover each.
var sharedPodParts = []reflect.Type{
	reflect.TypeFor[[]Container](), reflect.TypeFor[map[string]string](), reflect.TypeFor[[]OwnerReference](),
	reflect.TypeFor[[]Toleration](), reflect.TypeFor[*Affinity](), reflect.TypeFor[[]PodCondition](),
	reflect.TypeFor[VolumeSource](), reflect.TypeFor[ResourceRequirements](), reflect.TypeFor[[]EnvVar](),
	reflect.TypeFor[[]string](), reflect.TypeFor[*Probe](), reflect.TypeFor[[]ContainerPort](),
	reflect.TypeFor[[]EnvFromSource](), reflect.TypeFor[[]Volume](), reflect.TypeFor[[]VolumeMount](),
}

func TestGeneratedCodeCoversTheKindsAndThePodParts(t *testing.T) {
	requireGenerated(t)
	for _, r := range Resources() {
		_, ok := generatedDeepCopy(r.NewObject())
		assert.True(t, ok, "DeepCopy of %s is not generated: run go generate ./api", r.Kind)
	}
	types := reachableTypes()
	require.Subset(t, types, sharedPodParts)
	for _, typ := range types {
		p := reflect.New(typ).Interface()
		_, ok := generatedEqual(p, p)
		assert.True(t, ok, "Equal of %v is not generated", typ)
		assert.True(t, generatedDetach(p), "Detach of %v is not generated", typ)
	}
}

// randomTries is how many random values of each type the tests below try.
const randomTries = 40

func TestGeneratedDeepCopyOfEveryKind(t *testing.T) {
	requireGenerated(t)
	f := newRandFiller(1)
	for _, r := range Resources() {
		for i := range randomTries {
			obj := r.NewObject()
			f.fill(reflect.ValueOf(obj).Elem(), 0)
			name := fmt.Sprintf("%s #%d", r.Kind, i)

			c, ok := generatedDeepCopy(obj)
			require.True(t, ok, name)
			require.IsType(t, obj, c, name)
			require.True(t, reflect.DeepEqual(obj, c), "%s: the copy differs from the original", name)
			ref := reflectDeepCopy(obj)
			require.True(t, reflect.DeepEqual(ref, c), "%s: the generated and the reflective copy differ", name)
			requireDetached(t, name, reflect.ValueOf(obj).Elem(), reflect.ValueOf(c).Elem())

			// Whatever is changed in the copy, the original does not notice.
			mutateAll(reflect.ValueOf(c).Elem())
			require.True(t, reflect.DeepEqual(ref, obj), "%s: changing the copy changed the original", name)
		}
	}
	var none *Pod
	assert.Nil(t, DeepCopy(none))
}

func TestGeneratedDetachOfEveryType(t *testing.T) {
	requireGenerated(t)
	f := newRandFiller(2)
	for _, typ := range reachableTypes() {
		for i := range randomTries {
			orig := f.newFilled(typ)
			name := fmt.Sprintf("%v #%d", typ, i)

			c := reflect.New(typ)
			c.Elem().Set(orig.Elem())
			require.True(t, generatedDetach(c.Interface()), name)
			require.True(t, reflect.DeepEqual(orig.Elem().Interface(), c.Elem().Interface()), "%s: the copy differs from the original", name)
			ref := reflect.New(typ)
			ref.Elem().Set(orig.Elem())
			if c := copierFor(typ); c != nil {
				c(ref.Elem())
			}
			require.True(t, reflect.DeepEqual(ref.Elem().Interface(), c.Elem().Interface()), "%s: the generated and the reflective copy differ", name)
			requireDetached(t, name, orig.Elem(), c.Elem())

			mutateAll(c.Elem())
			require.True(t, reflect.DeepEqual(ref.Elem().Interface(), orig.Elem().Interface()), "%s: changing the copy changed the original", name)
		}
	}
}

// requireDetached fails unless c, a copy of orig, shares no pointee, slice array or map with it,
// in the exported fields the copiers copy (another package's struct, such as a Quantity, keeps
// what assignment gave it). A copied slice has no room past its end, as the apiserver's sharing of
// pod parts assumes.
func requireDetached(t *testing.T, name string, orig, c reflect.Value) {
	t.Helper()
	var walk func(path string, o, c reflect.Value)
	walk = func(path string, o, c reflect.Value) {
		switch o.Kind() {
		case reflect.Pointer:
			if !o.IsNil() {
				require.NotEqual(t, o.Pointer(), c.Pointer(), "%s: %s shares its pointee", name, path)
				walk(path, o.Elem(), c.Elem())
			}
		case reflect.Slice:
			if !o.IsNil() {
				require.Equal(t, c.Len(), c.Cap(), "%s: %s has room past its end", name, path)
			}
			if o.Len() > 0 {
				require.NotEqual(t, o.Pointer(), c.Pointer(), "%s: %s shares its array", name, path)
			}
			for i := range o.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), o.Index(i), c.Index(i))
			}
		case reflect.Map:
			if !o.IsNil() {
				require.NotEqual(t, o.Pointer(), c.Pointer(), "%s: %s shares its map", name, path)
			}
			iter := o.MapRange()
			for iter.Next() {
				walk(fmt.Sprintf("%s[%v]", path, iter.Key()), iter.Value(), c.MapIndex(iter.Key()))
			}
		case reflect.Array:
			for i := range o.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), o.Index(i), c.Index(i))
			}
		case reflect.Struct:
			if o.Type().PkgPath() != reflect.TypeFor[Pod]().PkgPath() {
				return
			}
			for i := range o.NumField() {
				if o.Type().Field(i).IsExported() {
					walk(path+"."+o.Type().Field(i).Name, o.Field(i), c.Field(i))
				}
			}
		}
	}
	walk(orig.Type().String(), orig, c)
}

// mutateAll changes everything reachable from v in place: every string, number and bool, every
// element and pointee, every map entry, and adds an entry to every map.
func mutateAll(v reflect.Value) {
	switch v.Type() {
	case randQuantityType:
		v.Set(reflect.ValueOf(resource.MustParse("7")))
		return
	case randTimeType:
		v.Set(reflect.ValueOf(time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "~")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Pointer:
		if !v.IsNil() {
			mutateAll(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			mutateAll(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			mutateAll(e)
			v.SetMapIndex(k, e)
		}
		k := reflect.New(v.Type().Key()).Elem()
		mutateAll(k)
		v.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
	case reflect.Struct:
		if v.Type().PkgPath() != reflect.TypeFor[Pod]().PkgPath() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				mutateAll(v.Field(i))
			}
		}
	}
}

// A oneChange is one way to make a value differ from another in one place. shape says it changes
// whether a slice, map or pointer is nil, or a slice's or map's length, not a value in it.
type oneChange struct {
	apply func()
	shape bool
}

// oneChanges lists the changes that can be made to v, everything reachable from it included.
func oneChanges(v reflect.Value) []oneChange {
	var out []oneChange
	add := func(shape bool, apply func()) { out = append(out, oneChange{apply, shape}) }
	switch v.Type() {
	case randQuantityType:
		q := v.Interface().(resource.Quantity)
		add(false, func() { v.Set(reflect.ValueOf(resource.MustParse("3"))) })
		// The same amount written otherwise: semantically equal, but not to reflect.DeepEqual.
		add(false, func() { v.Set(reflect.ValueOf(resource.NewMilliQuantity(q.MilliValue(), resource.DecimalSI))) })
		return out
	case randTimeType:
		tm := v.Interface().(time.Time)
		add(false, func() { v.Set(reflect.ValueOf(tm.Add(time.Second))) })
		add(false, func() { v.Set(reflect.ValueOf(tm.In(time.FixedZone("Y", 0)))) }) // the same instant
		return out
	}
	switch v.Kind() {
	case reflect.String:
		add(false, func() { v.SetString(v.String() + "~") })
	case reflect.Bool:
		add(false, func() { v.SetBool(!v.Bool()) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		add(false, func() { v.SetInt(v.Int() + 1) })
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		add(false, func() { v.SetUint(v.Uint() + 1) })
	case reflect.Pointer:
		if v.IsNil() {
			add(true, func() { v.Set(reflect.New(v.Type().Elem())) })
		} else {
			add(true, func() { v.SetZero() })
			out = append(out, oneChanges(v.Elem())...)
		}
	case reflect.Slice:
		switch {
		case v.IsNil():
			add(true, func() { v.Set(reflect.MakeSlice(v.Type(), 0, 0)) })
		case v.Len() == 0:
			add(true, func() { v.SetZero() })
		default:
			add(true, func() { v.SetZero() })
			add(true, func() { v.SetLen(v.Len() - 1) })
			for i := range v.Len() {
				out = append(out, oneChanges(v.Index(i))...)
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			out = append(out, oneChanges(v.Index(i))...)
		}
	case reflect.Map:
		switch {
		case v.IsNil():
			add(true, func() { v.Set(reflect.MakeMap(v.Type())) })
		case v.Len() == 0:
			add(true, func() { v.SetZero() })
		default:
			add(true, func() { v.SetZero() })
			add(true, func() { v.SetMapIndex(v.MapKeys()[0], reflect.Value{}) })
			for _, k := range v.MapKeys() {
				// A map's values are not addressable: each change is made to a copy put back in.
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(v.MapIndex(k))
				for _, c := range oneChanges(e) {
					add(c.shape, func() { c.apply(); v.SetMapIndex(k, e) })
				}
			}
		}
	case reflect.Struct:
		if v.Type().PkgPath() != reflect.TypeFor[Pod]().PkgPath() {
			return out
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = append(out, oneChanges(v.Field(i))...)
			}
		}
	}
	return out
}

// requireEqualAgrees compares the pointers a and b with the generated equality and with the
// reflective one, and fails unless both say what reflect.DeepEqual says. It returns that.
func requireEqualAgrees(t *testing.T, name string, a, b reflect.Value) bool {
	t.Helper()
	want := reflect.DeepEqual(a.Elem().Interface(), b.Elem().Interface())
	got, ok := generatedEqual(a.Interface(), b.Interface())
	require.True(t, ok, "%s: Equal is not generated", name)
	require.Equal(t, want, got, "%s: generated Equal says %v, reflect.DeepEqual %v", name, got, want)
	require.Equal(t, want, equalFor(a.Type().Elem())(a.Elem(), b.Elem()), "%s: reflective Equal disagrees", name)
	return want
}

// differentPairs compares random values of typ with a deep copy, with a shallow copy (sharing
// every map, slice and pointee), with a copy changed in one place (in its shape in half the tries)
// and with another random value. It returns how many pairs were unequal.
func differentPairs(t *testing.T, f randFiller, typ reflect.Type, tries int) (unequal int) {
	for i := range tries {
		a := f.newFilled(typ)
		name := fmt.Sprintf("%v #%d", typ, i)

		b := reflect.New(typ)
		b.Elem().Set(a.Elem())
		requireEqualAgrees(t, name+" and its shallow copy", a, b)
		if c := copierFor(typ); c != nil {
			c(b.Elem())
		}
		requireEqualAgrees(t, name+" and its deep copy", a, b)

		if cs := oneChanges(b.Elem()); len(cs) > 0 {
			shape := f.r.IntN(2) == 0
			if some := slices.DeleteFunc(slices.Clone(cs), func(c oneChange) bool { return c.shape != shape }); len(some) > 0 {
				cs = some
			}
			cs[f.r.IntN(len(cs))].apply()
			if !requireEqualAgrees(t, name+" and a copy changed in one place", a, b) {
				unequal++
			}
		}

		if !requireEqualAgrees(t, name+" and another", a, f.newFilled(typ)) {
			unequal++
		}
	}
	return unequal
}

func TestGeneratedEqualAgreesWithReflectDeepEqual(t *testing.T) {
	requireGenerated(t)
	f := newRandFiller(3)
	unequal := 0
	for _, r := range Resources() {
		unequal += differentPairs(t, f, reflect.TypeOf(r.NewObject()).Elem(), randomTries)
	}
	for _, typ := range reachableTypes() {
		unequal += differentPairs(t, f, typ, randomTries/4)
	}
	for _, typ := range sharedPodParts {
		unequal += differentPairs(t, f, typ, randomTries)
	}
	assert.Greater(t, unequal, 1000, "too few unequal pairs to test anything")
}

// Examples of what reflect.DeepEqual says that Equal must say too, through the generated code.
func TestGeneratedEqualCases(t *testing.T) {
	requireGenerated(t)
	cpu := func(s string) ResourceRequirements {
		return ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse(s)}}
	}
	same, other := cpu("1"), cpu("1")
	assert.True(t, Equal(&same, &other))
	other = cpu("1000m") // the same amount, but not the same value
	assert.False(t, Equal(&same, &other))

	// Quantities too large for an int64 point to big.Ints: two parsings of one are deeply equal
	// without being ==.
	huge, again := cpu("10000000000.000000001"), cpu("10000000000.000000001")
	assert.True(t, Equal(&huge, &again))

	shared := []Container{{Name: "c"}}
	alias := shared
	assert.True(t, Equal(&shared, &alias))
	var none []Container
	empty := []Container{}
	assert.False(t, Equal(&none, &empty))
	assert.True(t, Equal(&none, &none))

	var noAffinity *Affinity
	some := &Affinity{}
	assert.False(t, Equal(&noAffinity, &some))
	another := &Affinity{}
	assert.True(t, Equal(&some, &another))

	at := NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	elsewhere := Time{at.In(time.FixedZone("X", 0))}
	assert.False(t, Equal(&at, &elsewhere), "the same instant in another location")
	assert.Equal(t, reflect.DeepEqual(at, elsewhere), Equal(&at, &elsewhere))
}

// notGenerated is a type the generator never saw: it is copied and compared by reflection.
type notGenerated struct {
	Containers []Container
	Labels     map[string][]string
	Any        any
}

func TestTypesNotGeneratedTakeTheReflectivePath(t *testing.T) {
	requireGenerated(t)
	orig := notGenerated{Containers: fullPod().Spec.Containers, Labels: map[string][]string{"a": {"b"}}, Any: []string{"x"}}
	_, ok := generatedEqual(&orig, &orig)
	require.False(t, ok)
	require.False(t, generatedDetach(&orig))
	_, ok = generatedDeepCopy(&treeNode{})
	require.False(t, ok)

	c := orig
	Detach(&c)
	require.True(t, Equal(&orig, &c))
	requireDetached(t, "notGenerated", reflect.ValueOf(orig), reflect.ValueOf(c))
	c.Labels["a"][0] = "changed"
	c.Any.([]string)[0] = "changed"
	assert.False(t, Equal(&orig, &c))
	assert.Equal(t, "b", orig.Labels["a"][0])
	assert.Equal(t, "x", orig.Any.([]string)[0])

	root := &treeNode{Children: []*treeNode{{ObjectMeta: ObjectMeta{Name: "leaf"}}}}
	cp := DeepCopy(root)
	require.Equal(t, root, cp)
	cp.Children[0].Name = "changed"
	assert.Equal(t, "leaf", root.Children[0].Name)
}

// Without zz_generated.copy.go (deleted to be regenerated, say) the hooks are nil and everything
// is done by reflection.
func TestWithoutTheGeneratedCode(t *testing.T) {
	deepCopy, detach, equal := generatedDeepCopy, generatedDetach, generatedEqual
	t.Cleanup(func() { generatedDeepCopy, generatedDetach, generatedEqual = deepCopy, detach, equal })
	generatedDeepCopy, generatedDetach, generatedEqual = nil, nil, nil

	pod := fullPod()
	c := DeepCopy(pod)
	require.Equal(t, pod, c)
	requireDetached(t, "pod", reflect.ValueOf(pod).Elem(), reflect.ValueOf(c).Elem())
	assert.True(t, Equal(pod, c))
	c.Spec.Containers[0].Image = "changed"
	assert.False(t, Equal(pod, c))
	containers := pod.Spec.Containers
	Detach(&containers)
	requireDetached(t, "containers", reflect.ValueOf(pod.Spec.Containers), reflect.ValueOf(containers))
}

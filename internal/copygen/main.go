// main.go: the generator: which types it covers (walk, class), what their functions are called
// (name), and the code of each (detachBody, equalBody, the dispatch of writeHooks).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"kubesim/api"
)

func main() {
	out := flag.String("o", "zz_generated.copy.go", "the file to write")
	flag.Parse()
	src, err := generate()
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "copygen:", err)
		os.Exit(1)
	}
}

// generate returns the formatted source of api/zz_generated.copy.go for the kinds registered in
// package api.
func generate() ([]byte, error) {
	var kinds []reflect.Type
	for _, r := range api.Resources() {
		kinds = append(kinds, reflect.TypeOf(r.NewObject()).Elem())
	}
	return generateFor(reflect.TypeFor[api.Object](), kinds)
}

// generateFor returns the code for kinds, struct types of the package whose interface of objects
// is object (api.Object), and for every type reachable from them; the code is for that package.
func generateFor(object reflect.Type, kinds []reflect.Type) ([]byte, error) {
	g := &generator{pkg: object.PkgPath(), object: object, seen: map[reflect.Type]bool{}, names: map[reflect.Type]string{},
		byName: map[string]reflect.Type{}, needs: map[reflect.Type]bool{}, imports: map[string]string{}}
	for _, t := range kinds {
		g.walk(t)
	}
	if g.err != nil {
		return nil, g.err
	}
	return g.write()
}

// generator holds what one run has found.
type generator struct {
	pkg     string       // the import path of the package the code is for (kubesim/api)
	object  reflect.Type // its interface of objects (api.Object)
	seen    map[reflect.Type]bool
	names   map[reflect.Type]string // the covered types and the names of their functions (Pod: detachPod, equalPod)
	byName  map[string]reflect.Type // the same the other way round, to catch two types given one name
	needs   map[reflect.Type]bool   // needsCopy's answers
	imports map[string]string       // package name -> import path, of the other packages' types named
	err     error
}

// A type's class says what the generated code does with a value of it.
type class int

const (
	basic    class = iota // a bool, number or string: compared with ==, copied by assignment
	covered               // the generator writes its functions
	fallback              // left to the reflective functions (an interface, a function, a generic type)
)

func (g *generator) class(t reflect.Type) class {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return basic
	case reflect.Struct, reflect.Pointer, reflect.Slice, reflect.Map, reflect.Array:
	default:
		return fallback
	}
	if t.Name() == "" { // an anonymous struct, or []T, map[K]V, *T, [n]T: written out where used
		if t.Kind() == reflect.Struct || !g.nameable(t) {
			return fallback
		}
		return covered
	}
	if !g.nameable(t) {
		return fallback
	}
	if t.Kind() == reflect.Struct && t.PkgPath() == g.pkg {
		for i := range t.NumField() {
			if t.Field(i).Name == "_" { // a blank field counts for reflect.DeepEqual but cannot be named
				return fallback
			}
		}
	}
	return covered
}

// nameable reports whether code in package api can name t.
func (g *generator) nameable(t reflect.Type) bool {
	if t.Name() != "" {
		switch {
		case strings.Contains(t.Name(), "["): // an instance of a generic type
			return false
		case t.PkgPath() == "" || t.PkgPath() == g.pkg: // predeclared, or api's own
			return true
		}
		r, _ := utf8.DecodeRuneInString(t.Name())
		return unicode.IsUpper(r)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return g.nameable(t.Elem())
	case reflect.Map:
		return g.nameable(t.Key()) && g.nameable(t.Elem())
	case reflect.Interface:
		return t.NumMethod() == 0 // any
	}
	return false
}

// walk adds t, and every type reachable from it, to the covered types.
func (g *generator) walk(t reflect.Type) {
	if g.seen[t] {
		return
	}
	g.seen[t] = true
	if g.class(t) != covered {
		return
	}
	name := g.name(t)
	if other, ok := g.byName[name]; ok {
		g.err = fmt.Errorf("types %v and %v would both have functions named %s", other, t, name)
		return
	}
	g.names[t], g.byName[name] = name, t
	switch t.Kind() {
	case reflect.Struct:
		if t.PkgPath() == g.pkg { // another package's struct is compared whole (equalBody)
			for i := range t.NumField() {
				g.walk(t.Field(i).Type)
			}
		}
	case reflect.Map:
		g.walk(t.Key())
		g.walk(t.Elem())
	default:
		g.walk(t.Elem())
	}
}

// name returns the part of the names of t's functions after "detach" or "equal": Pod,
// SliceOfContainer, PtrToAffinity, MapStringToString, ResourceQuantity (resource.Quantity).
func (g *generator) name(t reflect.Type) string {
	if t.Name() != "" {
		if t.PkgPath() == "" || t.PkgPath() == g.pkg {
			return upperFirst(t.Name())
		}
		return upperFirst(g.pkgName(t)) + t.Name()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "PtrTo" + g.name(t.Elem())
	case reflect.Slice:
		return "SliceOf" + g.name(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("Array%dOf%s", t.Len(), g.name(t.Elem()))
	case reflect.Map:
		return "Map" + g.name(t.Key()) + "To" + g.name(t.Elem())
	}
	return "Any"
}

// typeExpr returns t as code in package api writes it, noting the imports that needs.
func (g *generator) typeExpr(t reflect.Type) string {
	if t.Name() != "" {
		if t.PkgPath() == "" || t.PkgPath() == g.pkg {
			return t.Name()
		}
		return g.pkgName(t) + "." + t.Name()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + g.typeExpr(t.Elem())
	case reflect.Slice:
		return "[]" + g.typeExpr(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), g.typeExpr(t.Elem()))
	case reflect.Map:
		return "map[" + g.typeExpr(t.Key()) + "]" + g.typeExpr(t.Elem())
	}
	return "any"
}

// pkgName returns the name of the package of t, a named type of another package, and notes its import.
func (g *generator) pkgName(t reflect.Type) string {
	name := strings.TrimSuffix(t.String(), "."+t.Name())
	if path, ok := g.imports[name]; ok && path != t.PkgPath() {
		g.err = fmt.Errorf("packages %s and %s are both called %s", path, t.PkgPath(), name)
	}
	g.imports[name] = t.PkgPath()
	return name
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// hasDeepCopy reports whether t has a DeepCopy method returning a T, which the reflective copier
// calls instead of copying t itself (resource.ResourceList).
func hasDeepCopy(t reflect.Type) bool {
	m, ok := t.MethodByName("DeepCopy")
	return ok && t.Kind() != reflect.Interface && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 && m.Type.Out(0) == t
}

// needsCopy reports whether a value of t copied by assignment still shares memory that Detach must
// replace: whether the reflective copier of t is not nil. It follows that copier's rules: a
// DeepCopy method, or else every pointer, slice, map and interface, looking at a struct's exported
// fields only.
func (g *generator) needsCopy(t reflect.Type) bool {
	if n, ok := g.needs[t]; ok {
		return n
	}
	// A struct is only reached again, while its answer is being found, through a pointer, slice or
	// map, whose answer is yes whatever this provisional one.
	g.needs[t] = false
	n := hasDeepCopy(t)
	if !n {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			n = true
		case reflect.Array:
			n = g.needsCopy(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() && g.needsCopy(f.Type) {
					n = true
				}
			}
		}
	}
	g.needs[t] = n
	return n
}

// comparable reports whether == on values of t is defined and never panics: t is comparable and no
// interface is reached without going through a pointer.
func comparable(t reflect.Type) bool {
	if !t.Comparable() {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Array:
		return comparable(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !comparable(t.Field(i).Type) {
				return false
			}
		}
	}
	return true
}

// detachStmt returns the statement that detaches *p, a value of t, or "" when none is needed.
func (g *generator) detachStmt(t reflect.Type, p string) string {
	switch {
	case !g.needsCopy(t):
		return ""
	case g.class(t) == covered:
		return "detach" + g.names[t] + "(" + p + ")\n"
	}
	return "reflectDetach(" + p + ")\n"
}

// equalExpr returns the expression that reports whether *pa and *pb, values of t, are equal.
func (g *generator) equalExpr(t reflect.Type, pa, pb string) string {
	switch g.class(t) {
	case basic:
		return deref(pa) + " == " + deref(pb)
	case covered:
		return "equal" + g.names[t] + "(" + pa + ", " + pb + ")"
	}
	return "reflectEqualValues(" + deref(pa) + ", " + deref(pb) + ")"
}

// unequalExpr is the negation of equalExpr.
func (g *generator) unequalExpr(t reflect.Type, pa, pb string) string {
	if g.class(t) == basic {
		return deref(pa) + " != " + deref(pb)
	}
	return "!" + g.equalExpr(t, pa, pb)
}

// deref returns the value that p, the address of a value (&a.F, &s[i], a), points to.
func deref(p string) string {
	if rest, ok := strings.CutPrefix(p, "&"); ok {
		return rest
	}
	return "*" + p
}

// detachBody returns the statements of detachT, and a note on them for its doc comment.
func (g *generator) detachBody(t reflect.Type) (body, note string) {
	texpr := g.typeExpr(t)
	var b strings.Builder
	if hasDeepCopy(t) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			b.WriteString("if *v != nil {\n*v = (*v).DeepCopy()\n}\n")
		default:
			b.WriteString("*v = (*v).DeepCopy()\n")
		}
		return b.String(), texpr + " copies itself (its DeepCopy method), as the reflective copier trusts it to."
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.PkgPath() != g.pkg {
			return "reflectDetach(v)\n", "Another package's struct is copied by reflection."
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				b.WriteString(g.detachStmt(f.Type, "&v."+f.Name))
			}
		}
	case reflect.Pointer:
		fmt.Fprintf(&b, "if *v == nil {\nreturn\n}\nc := **v\n%s*v = &c\n", g.detachStmt(t.Elem(), "&c"))
	case reflect.Slice:
		fmt.Fprintf(&b, "if *v == nil {\nreturn\n}\ns := make(%s, len(*v))\ncopy(s, *v)\n", texpr)
		if st := g.detachStmt(t.Elem(), "&s[i]"); st != "" {
			fmt.Fprintf(&b, "for i := range s {\n%s}\n", st)
		}
		b.WriteString("*v = s\n")
	case reflect.Map:
		fmt.Fprintf(&b, "if *v == nil {\nreturn\n}\nm := make(%s, len(*v))\nfor k, e := range *v {\n%sm[k] = e\n}\n*v = m\n",
			texpr, g.detachStmt(t.Elem(), "&e"))
	case reflect.Array:
		fmt.Fprintf(&b, "for i := range v {\n%s}\n", g.detachStmt(t.Elem(), "&v[i]"))
	}
	return b.String(), ""
}

// equalBody returns the statements of equalT, and a note on them for its doc comment.
func (g *generator) equalBody(t reflect.Type) (body, note string) {
	var b strings.Builder
	switch t.Kind() {
	case reflect.Struct:
		if t.PkgPath() != g.pkg {
			if comparable(t) {
				return "return *a == *b || reflectEqualValues(*a, *b)\n",
					"Its fields are unexported, out of reach here: equal values (identical pointers) are settled by ==, others by reflection."
			}
			return "return reflectEqualValues(*a, *b)\n", "Its fields are out of reach here: reflection compares them."
		}
		// The fields compared with == go first, as the cheapest: the answer is the same in any order.
		var cheap, rest []string
		for i := range t.NumField() {
			f := t.Field(i)
			e := g.equalExpr(f.Type, "&a."+f.Name, "&b."+f.Name)
			if g.class(f.Type) == basic {
				cheap = append(cheap, e)
			} else {
				rest = append(rest, e)
			}
		}
		if all := append(cheap, rest...); len(all) > 0 {
			b.WriteString("return " + strings.Join(all, " &&\n") + "\n")
		} else {
			b.WriteString("return true\n")
		}
	case reflect.Pointer:
		fmt.Fprintf(&b, "if *a == nil || *b == nil {\nreturn *a == *b\n}\nreturn *a == *b || %s\n", g.equalExpr(t.Elem(), "*a", "*b"))
	case reflect.Slice:
		fmt.Fprintf(&b, "x, y := *a, *b\nif (x == nil) != (y == nil) || len(x) != len(y) {\nreturn false\n}\n"+
			"if len(x) == 0 || &x[0] == &y[0] {\nreturn true\n}\n"+
			"for i := range x {\nif %s {\nreturn false\n}\n}\nreturn true\n", g.unequalExpr(t.Elem(), "&x[i]", "&y[i]"))
	case reflect.Map:
		fmt.Fprintf(&b, "x, y := *a, *b\nif (x == nil) != (y == nil) || len(x) != len(y) {\nreturn false\n}\n"+
			"if len(x) == 0 || sameMap(x, y) {\nreturn true\n}\n"+
			"for k, e := range x {\nf, ok := y[k]\nif !ok || %s {\nreturn false\n}\n}\nreturn true\n", g.unequalExpr(t.Elem(), "&e", "&f"))
	case reflect.Array:
		fmt.Fprintf(&b, "for i := range a {\nif %s {\nreturn false\n}\n}\nreturn true\n", g.unequalExpr(t.Elem(), "&a[i]", "&b[i]"))
	}
	return b.String(), ""
}

// sorted returns the covered types in the order of their names.
func (g *generator) sorted() []reflect.Type {
	types := make([]reflect.Type, 0, len(g.names))
	for t := range g.names {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return g.names[types[i]] < g.names[types[j]] })
	return types
}

// write returns the generated file, formatted.
func (g *generator) write() ([]byte, error) {
	types := g.sorted()
	var body bytes.Buffer
	g.writeHooks(&body, types)
	for _, t := range types {
		name, texpr := g.names[t], g.typeExpr(t)
		if g.needsCopy(t) {
			code, note := g.detachBody(t)
			fmt.Fprintf(&body, "\n%sfunc detach%s(v *%s) {\n%s}\n", comment(fmt.Sprintf("detach%s is Detach for a %s. %s", name, texpr, note)), name, texpr, code)
		}
		code, note := g.equalBody(t)
		fmt.Fprintf(&body, "\n%sfunc equal%s(a, b *%s) bool {\n%s}\n", comment(fmt.Sprintf("equal%s is Equal for a %s. %s", name, texpr, note)), name, texpr, code)
	}
	if g.err != nil {
		return nil, g.err
	}

	var out bytes.Buffer
	out.WriteString(header)
	fmt.Fprintf(&out, "package %s\n\n", strings.TrimSuffix(g.object.String(), "."+g.object.Name()))
	if len(g.imports) > 0 {
		names := make([]string, 0, len(g.imports))
		for name := range g.imports {
			names = append(names, name)
		}
		sort.Slice(names, func(i, j int) bool { return g.imports[names[i]] < g.imports[names[j]] })
		// In groups, as in the rest of kubesim: the standard library, other modules, kubesim's own.
		group := func(path string) int {
			switch first, _, _ := strings.Cut(path, "/"); {
			case first == "kubesim":
				return 2
			case strings.Contains(first, "."):
				return 1
			}
			return 0
		}
		sort.SliceStable(names, func(i, j int) bool { return group(g.imports[names[i]]) < group(g.imports[names[j]]) })
		out.WriteString("import (\n")
		for i, name := range names {
			path := g.imports[name]
			if i > 0 && group(path) != group(g.imports[names[i-1]]) {
				out.WriteString("\n")
			}
			if path[strings.LastIndex(path, "/")+1:] == name {
				fmt.Fprintf(&out, "%q\n", path)
			} else {
				fmt.Fprintf(&out, "%s %q\n", name, path)
			}
		}
		out.WriteString(")\n")
	}
	out.Write(body.Bytes())
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated code: %v\n%s", err, out.Bytes())
	}
	return src, nil
}

// comment returns text as a comment, its lines filled to 100 columns.
func comment(text string) string {
	var b strings.Builder
	line := "//"
	for _, word := range strings.Fields(text) {
		if len(line)+1+len(word) > 100 && line != "//" {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
	return b.String()
}

const header = `// Code generated by kubesim/internal/copygen. DO NOT EDIT.

//go:build !apigen

// zz_generated.copy.go: Detach, DeepCopy and Equal as plain code for every type reachable from the
// registered kinds: detachT and equalT for each type T, and the type switches that the hooks of
// deepcopy.go and equal.go call first. A type not covered here takes the reflective path there.
// internal/copygen says what each function does; regenerate with ` + "`go generate ./api`" + `.

`

// writeHooks writes the init that registers the generated functions, and the type switches they
// are reached through: one case per covered type, on a pointer to it.
func (g *generator) writeHooks(w *bytes.Buffer, types []reflect.Type) {
	w.WriteString(`func init() {
	generatedDeepCopy = deepCopyGenerated
	generatedDetach = detachGenerated
	generatedEqual = equalGenerated
}

// deepCopyGenerated is DeepCopy for the kinds.
func deepCopyGenerated(obj Object) (Object, bool) {
	switch o := obj.(type) {
`)
	for _, t := range types {
		if t.Kind() != reflect.Struct || !reflect.PointerTo(t).Implements(g.object) {
			continue
		}
		detach := "detach" + g.names[t]
		if !g.needsCopy(t) {
			detach = "func(*" + g.typeExpr(t) + ") {}"
		}
		fmt.Fprintf(w, "case *%s:\nreturn copyWith(o, %s), true\n", g.typeExpr(t), detach)
	}
	w.WriteString("}\nreturn nil, false\n}\n\n// detachGenerated is Detach for the covered types.\nfunc detachGenerated(v any) bool {\nswitch v := v.(type) {\n")
	var whole []string
	for _, t := range types {
		if g.needsCopy(t) {
			fmt.Fprintf(w, "case *%s:\ndetach%s(v)\n", g.typeExpr(t), g.names[t])
		} else {
			whole = append(whole, "*"+g.typeExpr(t))
		}
	}
	if len(whole) > 0 {
		fmt.Fprintf(w, "case %s:\n// Assignment has copied these whole.\n", strings.Join(whole, ",\n"))
	}
	w.WriteString("default:\nreturn false\n}\nreturn true\n}\n\n// equalGenerated is Equal for the covered types.\nfunc equalGenerated(a, b any) (equal, ok bool) {\nswitch a := a.(type) {\n")
	for _, t := range types {
		texpr := g.typeExpr(t)
		fmt.Fprintf(w, "case *%s:\nreturn equal%s(a, b.(*%s)), true\n", texpr, g.names[t], texpr)
	}
	w.WriteString("}\nreturn false, false\n}\n")
}

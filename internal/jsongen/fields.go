// fields.go: which members a struct has in encoding/json's eyes, and in which order: its rules for
// tags, embedded structs and name clashes (typeFields in encoding/json's encode.go), restated so that
// the generated code lists the same members.
package main

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// jsonField is one member of a struct's JSON object.
type jsonField struct {
	name      string
	tagged    bool  // the name comes from a json tag
	index     []int // the path of field indexes to it, through embedded structs
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
	quoted    bool // ",string": a bool, number or string written inside a JSON string
}

// structFields returns t's members in encoding/json's order (that of the Go fields, embedded
// structs' members in place of the embedded field). As in encoding/json: unexported fields and those
// tagged "-" are left out; an embedded struct without a tag name gives its members to the outer
// struct (TypeMeta `json:",inline"`), one with a name is a member (ObjectMeta `json:"metadata"`);
// of members of one name the shallowest wins, then the tagged one, and a tie leaves them all out.
func structFields(t reflect.Type) []jsonField {
	current := []jsonField{}
	next := []jsonField{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []jsonField

	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clip(f.index), i)

				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64, reflect.String:
						quoted = true
					}
				}

				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					field := jsonField{
						name:      name,
						tagged:    name != "",
						index:     index,
						typ:       sf.Type,
						omitEmpty: hasOption(opts, "omitempty"),
						omitZero:  hasOption(opts, "omitzero"),
						quoted:    quoted,
					}
					if field.name == "" {
						field.name = sf.Name
					}
					fields = append(fields, field)
					if count[f.typ] > 1 {
						// The embedded struct was found twice at this depth: a duplicate makes the
						// clash below drop the member, as encoding/json does.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, jsonField{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}

	slices.SortFunc(fields, func(a, b jsonField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		name := fields[i].name
		for advance = 1; i+advance < len(fields) && fields[i+advance].name == name; advance++ {
		}
		same := fields[i : i+advance]
		if len(same) > 1 && len(same[0].index) == len(same[1].index) && same[0].tagged == same[1].tagged {
			continue // a clash no rule settles: encoding/json writes neither
		}
		out = append(out, same[0])
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}

// hasOption reports whether the comma-separated tag options hold opt.
func hasOption(opts, opt string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == opt {
			return true
		}
	}
	return false
}

// validTagName is encoding/json's isValidTag: letters, digits and most punctuation, but not quotes,
// backslashes or spaces other than ' '.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// htmlEscape is encoding/json's escaping of a member name: <, >, &, U+2028 and U+2029.
func htmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<', '>', '&', '\u2028', '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

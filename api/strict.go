// strict.go: the strict field check behind Decode (the apiserver's fieldValidation=Strict, done in
// Kubernetes by sigs.k8s.io/json). It walks a JSON document alongside the Go type it decodes into and
// collects every key the type has no field for, and every known key given twice, each with its full
// path: "spec.template.spec.containers[0].imagePullPolcy". Keys match field names exactly, as in
// Kubernetes; encoding/json alone would accept "Replicas" for "replicas". A key that Kubernetes' schema
// has but kubesim's type leaves out (unmodelled.go) is not a problem but a warning.
//
// The walk runs on every write the apiserver decodes, so it reads the bytes itself instead of going
// through encoding/json's tokenizer, which allocates for every token. It only ever sees JSON that
// json.Valid has accepted.
package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// strictCheck returns the strict decoding problems of the valid JSON j against type t, in document
// order, worded as sigs.k8s.io/json words them: `unknown field "spec.replica"` for a key the type has
// no field for, `duplicate field "metadata.name"` for a known field or map key given twice. Each
// problem is reported once, and at most maxStrictProblems of them. It also returns one warning for
// each field that Kubernetes' schema has but kubesim's type leaves out (unmodelled.go).
func strictCheck(j []byte, t reflect.Type) (problems, warnings []string) {
	w := &strictWalker{scan: jsonScanner{data: j}}
	w.value(t, "")
	return w.problems, w.warnings
}

// maxStrictProblems is where sigs.k8s.io/json stops collecting strict errors.
const maxStrictProblems = 100

type strictWalker struct {
	scan     jsonScanner
	problems []string
	warnings []string
	reported map[string]bool // problems and warnings already recorded
}

// report records msg in list once.
func (w *strictWalker) report(list *[]string, msg string) {
	if w.reported[msg] || len(w.problems) >= maxStrictProblems {
		return
	}
	if w.reported == nil {
		w.reported = map[string]bool{}
	}
	w.reported[msg] = true
	*list = append(*list, msg)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// value consumes one JSON value that decodes into type t at path.
func (w *strictWalker) value(t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := &w.scan
	switch c := s.peek(); {
	case reflect.PointerTo(t).Implements(unmarshalerType):
		// The type reads its own JSON (Time, Quantity, IntOrString) and has no fields to check.
		s.skipValue()
	case c == '{' && t.Kind() == reflect.Struct:
		fields := jsonFields(t)
		w.object(path, func(key, at string) bool {
			ft, known := fields[key]
			switch {
			case known:
				w.value(ft, at)
			case unmodelledSet[t][key]:
				w.report(&w.warnings, fmt.Sprintf("kubesim does not simulate field %q; it is ignored", at))
				s.skipValue()
			default:
				w.report(&w.problems, fmt.Sprintf("unknown field %q", at))
				s.skipValue()
			}
			return known
		})
	case c == '{' && t.Kind() == reflect.Map:
		w.object(path, func(_, at string) bool {
			w.value(t.Elem(), at)
			return true
		})
	case c == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		s.pos++
		for i := 0; s.more(']'); i++ {
			w.value(t.Elem(), path+"["+strconv.Itoa(i)+"]")
		}
	default:
		// A scalar, an interface{}, or a shape the type does not expect (already a decode error).
		s.skipValue()
	}
}

// object walks the members of the object at the scanner, calling member for each key with the key's
// path; member reports whether the key is a known field or a map key. A known key given twice is a
// duplicate; an unknown key given twice is only unknown, as in sigs.k8s.io/json.
func (w *strictWalker) object(path string, member func(key, at string) bool) {
	s := &w.scan
	s.pos++ // '{'
	var seen map[string]bool
	for s.more('}') {
		key := s.str()
		s.ws()
		s.pos++ // ':'
		at := key
		if path != "" {
			at = path + "." + key
		}
		if !member(key, at) {
			continue
		}
		if seen[key] {
			w.report(&w.problems, fmt.Sprintf("duplicate field %q", at))
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[key] = true
	}
}

// jsonScanner reads valid JSON. pos is the offset of the next unread byte.
type jsonScanner struct {
	data []byte
	pos  int
}

func (s *jsonScanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the first byte of the next value.
func (s *jsonScanner) peek() byte {
	s.ws()
	if s.pos == len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// more reports whether the object or array being read has another member, consuming the ','
// before it or the closing delimiter after the last one.
func (s *jsonScanner) more(closing byte) bool {
	switch s.peek() {
	case ',':
		s.pos++
		s.ws()
		return true
	case closing:
		s.pos++
		return false
	}
	return s.pos < len(s.data)
}

// str reads a string and returns its value.
func (s *jsonScanner) str() string {
	s.ws()
	start := s.pos
	escaped := false
	for s.pos++; s.pos < len(s.data) && s.data[s.pos] != '"'; s.pos++ {
		if s.data[s.pos] == '\\' {
			escaped = true
			s.pos++
		}
	}
	s.pos++
	raw := s.data[start:min(s.pos, len(s.data))]
	if !escaped {
		return string(raw[1 : len(raw)-1])
	}
	var v string
	_ = json.Unmarshal(raw, &v) // valid JSON: cannot fail
	return v
}

// skipValue consumes one value of any kind.
func (s *jsonScanner) skipValue() {
	switch s.peek() {
	case '"':
		s.str()
	case '{':
		s.pos++
		for s.more('}') {
			s.str()
			s.ws()
			s.pos++ // ':'
			s.skipValue()
		}
	case '[':
		s.pos++
		for s.more(']') {
			s.skipValue()
		}
	default: // number, true, false, null
		for s.pos < len(s.data) && !strings.ContainsRune(",}] \t\n\r", rune(s.data[s.pos])) {
			s.pos++
		}
	}
}

var fieldMaps sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields maps the JSON names of t's fields to their types, as encoding/json sees them: fields of
// an embedded struct without a JSON name (TypeMeta, ProbeHandler) are promoted into t.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldMaps.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range jsonFields(ft) {
				m[k] = v
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	fieldMaps.Store(t, m)
	return m
}

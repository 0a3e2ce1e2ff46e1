// encode.go: the fast path of Encode. zz_generated.json.go, written by internal/jsongen, holds one
// append function for every type reachable from a registered kind, each writing byte for byte what
// encoding/json writes for it; this file holds the hook those functions are reached by and the helpers
// they share: strings, string maps and slices, base64, the JSON a json.Marshaler returns (compacted and
// escaped as encoding/json does), the hand-written forms of Time, MicroTime, IntOrString, Quantity and
// json.RawMessage, and json.Marshal itself for what is not generated.
//
// Why: the apiserver encodes every object it writes (etcd holds JSON), and encoding/json's reflection
// was the largest single cost of a pod create. The output must not change by a byte: the apiserver
// compares encodings to find no-op updates, and etcd's contents are what kubectl and the tests read.
//
// api compiles without the generated file (the generator imports api, and builds it with the tag
// apigen, which leaves the file out): Encode then uses json.Marshal for everything.
package api

//go:generate go run -tags apigen kubesim/internal/jsongen -o zz_generated.json.go

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"kubesim/api/resource"
)

// appendObjectJSON appends obj's JSON to b, if obj is of a registered kind; ok is false for any other
// type, and b is then unchanged. zz_generated.json.go sets it; nil means every object goes through
// json.Marshal.
var appendObjectJSON func(b []byte, obj Object) (_ []byte, ok bool, _ error)

// encodeBuffers holds scratch buffers for encodeJSON, so that an encoding allocates only its result.
var encodeBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBuffer is the largest buffer put back into encodeBuffers: one huge object (a ConfigMap of
// a megabyte) must not keep its buffer alive for every later pod.
const maxPooledBuffer = 64 << 10

// encodeJSON is json.Marshal(obj), through the generated encoders when obj's type has one.
func encodeJSON(obj Object) ([]byte, error) {
	if appendObjectJSON == nil {
		return json.Marshal(obj)
	}
	buf := encodeBuffers.Get().(*[]byte)
	b, ok, err := appendObjectJSON((*buf)[:0], obj)
	var out []byte
	if ok && err == nil {
		out = make([]byte, len(b))
		copy(out, b) // make then copy: the compiler leaves out clearing the new slice
	}
	if cap(b) <= maxPooledBuffer {
		*buf = b[:0]
		encodeBuffers.Put(buf)
	}
	switch {
	case !ok:
		return json.Marshal(obj)
	case err != nil:
		return nil, err
	}
	return out, nil
}

// closeJSONObject finishes an object whose members were appended from start on, each after a comma:
// the first comma becomes the opening brace, or, with no member, the object is "{}". Writing every
// member after a comma spares the generated code a test per member of whether one came before.
func closeJSONObject(b []byte, start int) []byte {
	if len(b) == start {
		return append(b, "{}"...)
	}
	b[start] = '{'
	return append(b, '}')
}

// jsonSafe[c] is true for the ASCII bytes encoding/json copies into a string as they are: printable
// ones, except the quote and backslash, which it escapes, and <, > and &, which it escapes so that
// the JSON can sit in HTML (encoding/json's default, which Marshal uses).
var jsonSafe = func() (safe [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ { // DEL (0x7f) included, as in encoding/json
		safe[c] = true
	}
	for _, c := range `"\<>&` {
		safe[c] = false
	}
	return safe
}()

const jsonHexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaped exactly as encoding/json escapes it: \" and
// \\, \b \f \n \r \t, other control characters as \u00XX, <, > and & as \u003c, \u003e and \u0026,
// U+2028 and U+2029 as \u2028 and \u2029, and each byte of invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHexDigits[c>>4], jsonHexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONQuotedString appends s as encoding/json writes a string field tagged ",string": the JSON
// string of s, itself written as a JSON string.
func appendJSONQuotedString(b []byte, s string) []byte {
	return appendJSONString(b, string(appendJSONString(nil, s)))
}

// appendJSONStrings appends a slice of strings (container commands, finalizers, verbs), null if nil.
func appendJSONStrings[S ~string](b []byte, list []S) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, string(s))
	}
	return append(b, ']')
}

// sortedJSONKeys appends m's keys to keys, sorted as encoding/json sorts a map's members (by the
// bytes of the key). The caller passes an empty slice of a small array of its own, which keeps the
// keys of a small map off the heap.
func sortedJSONKeys[K ~string, V any](keys []K, m map[K]V) []K {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendJSONStringMap appends a map of strings to strings (labels, annotations, selectors) with its
// keys sorted, null if nil.
func appendJSONStringMap[K ~string, V ~string](b []byte, m map[K]V) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [16]K
	b = append(b, '{')
	for i, k := range sortedJSONKeys(buf[:0], m) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, string(k))
		b = append(b, ':')
		b = appendJSONString(b, string(m[k]))
	}
	return append(b, '}')
}

// appendJSONBytes appends a []byte as encoding/json does: standard base64 in a string, null if nil.
func appendJSONBytes(b []byte, p []byte) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, p)
	return append(b, '"')
}

// appendJSONTime appends a Time's JSON, which Time.MarshalJSON also returns: null for the zero time,
// else RFC 3339 in UTC to the second (only digits, '-', ':', 'T' and 'Z': nothing to escape or
// compact).
func appendJSONTime(b []byte, t Time) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// appendJSONMicroTime appends a MicroTime's JSON, which MicroTime.MarshalJSON also returns: null, or
// RFC 3339 with microseconds.
func appendJSONMicroTime(b []byte, t MicroTime) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, rfc3339Micro)
	return append(b, '"')
}

// appendJSONIntOrString appends an IntOrString's JSON, which its MarshalJSON also returns: the JSON
// string of StrVal for a string, else the number IntVal (whatever Type holds).
func appendJSONIntOrString(b []byte, v IntOrString) []byte {
	if v.Type == StringType {
		return appendJSONString(b, v.StrVal)
	}
	return strconv.AppendInt(b, int64(v.IntVal), 10)
}

var (
	jsonQuantityType        = reflect.TypeFor[resource.Quantity]()
	jsonQuantityPointerType = reflect.TypeFor[*resource.Quantity]()
	jsonRawType             = reflect.TypeFor[json.RawMessage]()
	jsonRawPointerType      = reflect.TypeFor[*json.RawMessage]()
)

// appendJSONQuantity appends what encoding/json writes for q: its String in quotes. A String that
// holds nothing to escape (always, for a quantity the parser or arithmetic made) is copied as it is;
// anything else takes encoding/json's way with what MarshalJSON returns, failing where it fails.
// viaPointer says q was reached as a *Quantity field, which is the type encoding/json's error names.
func appendJSONQuantity(b []byte, q *resource.Quantity, viaPointer bool) ([]byte, error) {
	s := q.String()
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || !jsonSafe[c] {
			out, err := q.MarshalJSON()
			t := jsonQuantityType
			if viaPointer {
				t = jsonQuantityPointerType
			}
			return appendMarshaledJSON(b, out, err, t)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// appendJSONRaw appends what encoding/json writes for a json.RawMessage (a managed fields entry's
// fieldsV1, an admission review's object): null if nil, else the message compacted and escaped, and
// the syntax error if it is not JSON. viaPointer says it was reached as a *json.RawMessage.
func appendJSONRaw(b []byte, raw json.RawMessage, viaPointer bool) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	t := jsonRawType
	if viaPointer {
		t = jsonRawPointerType
	}
	return appendMarshaledJSON(b, raw, nil, t)
}

// appendJSONMarshaler appends what encoding/json writes for a value whose type implements
// json.Marshaler, by calling it. addr says m is the address of the value encoding/json would have
// encoded (a field or element, which it reaches by address), so that an error names the value's type
// and not the pointer's, as encoding/json's does.
func appendJSONMarshaler(b []byte, m json.Marshaler, addr bool) ([]byte, error) {
	out, err := m.MarshalJSON()
	t := reflect.TypeOf(m)
	if addr {
		t = t.Elem()
	}
	return appendMarshaledJSON(b, out, err, t)
}

// appendMarshaledJSON appends out, the result of the MarshalJSON method of a value of type t, as
// encoding/json does: compacted (no space outside strings) and with <, >, &, U+2028 and U+2029
// escaped within strings. A MarshalJSON error, or out not being JSON, fails as encoding/json fails,
// with the same *json.MarshalerError.
func appendMarshaledJSON(b, out []byte, err error, t reflect.Type) ([]byte, error) {
	if err == nil && !json.Valid(out) {
		var discard bytes.Buffer
		err = json.Compact(&discard, out) // the syntax error encoding/json's compaction reports
	}
	if err != nil {
		return b, &json.MarshalerError{Type: t, Err: err}
	}
	inString, escaped := false, false
	start := 0
	for i := 0; i < len(out); i++ {
		c := out[i]
		if !inString {
			switch c {
			case '"':
				inString = true
			case ' ', '\t', '\n', '\r':
				b = append(b, out[start:i]...)
				start = i + 1
			}
			continue
		}
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			inString = false
		case c == '<' || c == '>' || c == '&':
			b = append(b, out[start:i]...)
			b = append(b, '\\', 'u', '0', '0', jsonHexDigits[c>>4], jsonHexDigits[c&0xf])
			start = i + 1
		case c == 0xe2 && i+2 < len(out) && out[i+1] == 0x80 && out[i+2]&^1 == 0xa8: // U+2028, U+2029
			b = append(b, out[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHexDigits[out[i+2]&0xf])
			i += 2
			start = i + 1
		}
	}
	return append(b, out[start:]...), nil
}

// appendJSONField appends what encoding/json writes for *v where it finds it: at an address, as a
// field or element (so a method with a pointer receiver counts). It is the generated code's way with
// what it does not write itself (floats, interfaces, types implementing encoding.TextMarshaler):
// json.Marshal of a struct holding the value, less the struct's braces and member name.
func appendJSONField[T any](b []byte, v *T) ([]byte, error) {
	out, err := json.Marshal(&struct{ V T }{*v})
	if err != nil {
		return b, err
	}
	return append(b, out[len(`{"V":`):len(out)-1]...), nil
}

// appendJSONElement is appendJSONField for a value encoding/json finds where it has no address: a
// map's value.
func appendJSONElement[T any](b []byte, v T) ([]byte, error) {
	out, err := json.Marshal(struct{ V T }{v})
	if err != nil {
		return b, err
	}
	return append(b, out[len(`{"V":`):len(out)-1]...), nil
}

// isZeroJSON reports whether *v is its type's zero value as reflect sees it, which is what
// encoding/json's omitzero tests for a type without an IsZero method.
func isZeroJSON[T any](v *T) bool {
	return reflect.ValueOf(v).Elem().IsZero()
}

// isNilPointerJSON reports whether v holds a nil pointer: encoding/json's omitzero counts such an
// interface as zero without calling its IsZero method.
func isNilPointerJSON(v any) bool {
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

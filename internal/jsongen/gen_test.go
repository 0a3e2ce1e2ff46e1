// gen_test.go: api/zz_generated.json.go is what the generator writes now, and the generator's
// reading of a struct's members (fields.go) is encoding/json's, on structs that use every rule.
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := generate()
	require.NoError(t, err)
	got, err := os.ReadFile("../../api/zz_generated.json.go")
	require.NoError(t, err)
	if !bytes.Equal(got, want) {
		t.Fatal("api/zz_generated.json.go is not what jsongen writes for the types as they are: run go generate ./api")
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	first, err := generate()
	require.NoError(t, err)
	for range 3 {
		again, err := generate()
		require.NoError(t, err)
		require.Equal(t, string(first), string(again))
	}
}

// Structs that use encoding/json's rules for members: tags, "-", unexported fields, embedded structs
// with and without a name, embedded pointers, clashes settled by depth or by a tag, and unsettled.
type (
	Inner struct {
		A     string `json:"a"`
		B     string
		Clash string `json:"clash"`
		Deep  string `json:"deep"`
		X     string `json:"Tagged"`
	}
	Other struct {
		Clash  string `json:"clash"`
		Tie    string
		B      string
		Tagged string
	}
	Third struct {
		Tie  string
		Deep string
	}
	inner2 struct {
		Hidden string `json:"hiddenButPromoted"`
	}
	Nested  struct{ Third }
	Members struct {
		Inner `json:",inline"`
		*Other
		Nested
		inner2
		Named    Inner  `json:"named,omitempty"`
		Deep     string `json:"-,"` // a member named "-"
		Skipped  string `json:"-"`
		private  string
		Odd      string `json:"a\"b"` // not a valid name: the Go name is used
		HTML     string `json:"<&>"`
		Options  int    `json:",omitempty,string"`
		Embedded `json:"embeddedNamed"`
	}
	Embedded string
)

func TestStructFieldsAreEncodingJSONs(t *testing.T) {
	v := Members{Inner: Inner{"1", "2", "3", "4", "4b"}, Other: &Other{"5", "6", "6b", "6c"}, Nested: Nested{Third{"7", "8"}},
		inner2: inner2{"9"}, Named: Inner{A: "n"}, Deep: "10", Skipped: "11", private: "12", Odd: "13", HTML: "14",
		Options: 15, Embedded: "16"}
	want, err := json.Marshal(v)
	require.NoError(t, err)

	// Rebuild the object from structFields, member by member, with encoding/json for each value.
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range structFields(reflect.TypeFor[Members]()) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + htmlEscape(f.name) + `":`)
		fv := reflect.ValueOf(v).FieldByIndex(f.index)
		out, err := json.Marshal(fv.Interface())
		require.NoError(t, err)
		if f.quoted {
			out = []byte(`"` + string(out) + `"`)
		}
		b.Write(out)
	}
	b.WriteByte('}')
	assert.Equal(t, string(want), b.String())
	assert.Equal(t, `{"a":"1","deep":"4","Tagged":"4b","Tie":"6","Deep":"8","hiddenButPromoted":"9",`+
		`"named":{"a":"n","B":"","clash":"","deep":"","Tagged":""},"-":"10","Odd":"13","\u003c\u0026\u003e":"14",`+
		`"Options":"15","embeddedNamed":"16"}`, string(want), "encoding/json's rules changed")
}

// Tree reaches itself: it is left to json.Marshal wherever it is found, and generation ends.
type Tree struct {
	Name     string `json:"name"`
	Children []Tree `json:"children,omitempty"`
	Parent   *Tree  `json:"parent,omitempty"`
}

// Forest reaches itself through a named slice.
type Forest []Forest

// Exotic has what no kind has today, each of which the generated code leaves to json.Marshal or
// writes by a rule of its own.
type Exotic struct {
	F       float64         `json:"f,omitempty"`
	Q       float32         `json:"q,string"`
	N       int             `json:"n,omitzero"`
	S       string          `json:"s,string"`
	I       any             `json:"i"`
	T       time.Time       `json:"t"` // MarshalJSON with a value receiver, not one encode.go restates
	P       ptrMarshaler    `json:"p"`
	Keys    map[int]string  `json:"keys"`
	Arr     [2]int          `json:"arr"`
	Z       zeroer          `json:"z,omitzero"`
	Tree    Tree            `json:"tree"`
	Forest  Forest          `json:"forest"`
	Inside  map[string]Tree `json:"inside"`
	*Inline `json:",inline"`
}

type Inline struct{ X string }

type ptrMarshaler struct{}

func (*ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte("1"), nil }

type zeroer struct{ A int }

func (zeroer) IsZero() bool { return true }

func TestGenerateTheUnusual(t *testing.T) {
	src, err := generateFor([]reflect.Type{reflect.TypeFor[Exotic](), reflect.TypeFor[Tree]()})
	require.NoError(t, err)
	code := string(src)
	for _, want := range []string{
		"if x.F != 0 {",            // omitempty on a float: -0 is empty too
		"appendJSONField(b, &x.F)", // floats: json.Marshal
		"b = append(b, '\"')\n\tif b, err = appendJSONField(b, &x.Q)", // ",string" on a float
		"if x.N != 0 {",                      // omitzero
		"appendJSONQuotedString(b, x.S)",     // ",string" on a string
		"appendJSONField(b, &x.I)",           // interfaces: json.Marshal
		"appendJSONMarshaler(b, &x.T, true)", // a Marshaler found at an address
		"appendJSONMarshaler(b, &x.P, true)", // a pointer receiver counts at an address
		"appendJSONField(b, &x.Keys)",        // keys that are not strings: json.Marshal
		"for i1 := range x.Arr {",            // arrays element by element, no null
		"if !x.Z.IsZero() {",                 // omitzero by the IsZero method
		"appendJSONField(b, &x.Z)",           // another package's unexported type: json.Marshal
		"appendJSONField(b, &x.Tree)",        // recursive: json.Marshal
		"appendJSONField(b, &x.Forest)",      // recursive through a named slice
		"appendJSONElement(b, v",             // a recursive map value, found without an address
		"if x.Inline != nil {",               // an embedded pointer: nil has no members
	} {
		assert.Contains(t, code, want)
	}
	assert.NotContains(t, code, "func appendJSONTree(", "a recursive type has no function")
	assert.NotContains(t, code, "case *main.Tree:", "a recursive root goes to json.Marshal whole")
}

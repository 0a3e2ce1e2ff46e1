// decode.go: reading and writing manifests (apimachinery's serializers, with the apiserver's strict
// field validation). Interface: Decode, DecodeInto, Encode, EncodeYAML, and the errors
// NoKindMatchError, MissingFieldError and StrictDecodingError.
//
// Kubernetes rejects what it does not understand: since 1.27 kubectl asks the apiserver for strict
// field validation, and a misspelt field fails the request instead of vanishing. kubesim does the same,
// which matters even more here, because kubesim omits many Kubernetes fields: a manifest that uses one
// must fail loudly, naming it, rather than run without it.
//
// Decoding goes: split YAML documents at "---" lines; convert each to JSON (sigs.k8s.io/yaml, as
// kubectl does before sending); look up apiVersion and kind in the scheme; unmarshal into the typed
// object; then walk the JSON against the Go type to find every field the type does not have
// (strict.go).
package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"

	"sigs.k8s.io/yaml"
)

// NoKindMatchError says the scheme has no such apiVersion and kind, in kubectl's words.
type NoKindMatchError struct {
	APIVersion, Kind string
}

func (e *NoKindMatchError) Error() string {
	return fmt.Sprintf("no matches for kind %q in version %q", e.Kind, e.APIVersion)
}

// MissingFieldError says a manifest lacks apiVersion or kind ("Object 'Kind' is missing in '...'").
type MissingFieldError struct {
	Field string // "Kind" or "apiVersion", spelt as Kubernetes does in this message
	Data  string // the document as JSON, shortened
}

func (e *MissingFieldError) Error() string {
	return fmt.Sprintf("Object '%s' is missing in '%s'", e.Field, e.Data)
}

// StrictDecodingError lists every unknown or duplicate field of one document, with its full path:
// `strict decoding error: unknown field "spec.replica", duplicate field "metadata.name"`.
type StrictDecodingError struct {
	Errors []string
}

func (e *StrictDecodingError) Error() string {
	var b bytes.Buffer
	b.WriteString("strict decoding error: ")
	for i, msg := range e.Errors {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(msg)
	}
	return b.String()
}

// Decode reads every object in data: YAML (several documents separated by "---" lines) or JSON.
// Each document must name an apiVersion and kind the scheme knows and use only fields its type has.
// Empty documents are skipped. An error in a later document is prefixed with its number.
func Decode(data []byte) ([]Object, error) {
	docs := splitDocuments(data)
	var objs []Object
	for i, doc := range docs {
		obj, err := decodeDocument(doc)
		if err != nil {
			if len(docs) > 1 {
				err = fmt.Errorf("document %d: %w", i+1, err)
			}
			return nil, err
		}
		if obj != nil {
			objs = append(objs, obj)
		}
	}
	return objs, nil
}

// DecodeInto reads one document (YAML or JSON) into obj, replacing its contents, with the same strict
// checks as Decode. apiVersion and kind may be omitted, as in a request body whose URL already says
// what it is; if present they must match obj's kind. A registered kind's TypeMeta is filled in.
func DecodeInto(data []byte, obj Object) error {
	docs := splitDocuments(data)
	if len(docs) > 1 {
		return fmt.Errorf("expected a single document, found %d", len(docs))
	}
	j, err := toJSON(docs[0])
	if err != nil {
		return err
	}
	if string(j) == "null" {
		return errors.New("empty document")
	}
	tm, err := peekTypeMeta(j)
	if err != nil {
		return err
	}
	r, registered := ResourceOf(obj)
	if registered && ((tm.Kind != "" && tm.Kind != r.Kind) || (tm.APIVersion != "" && tm.APIVersion != r.APIVersion())) {
		return fmt.Errorf("the object in the data (%s, %s) does not match the expected kind (%s, %s)",
			tm.APIVersion, tm.Kind, r.APIVersion(), r.Kind)
	}
	reflect.ValueOf(obj).Elem().SetZero()
	if err := unmarshalStrict(j, obj); err != nil {
		return err
	}
	if registered {
		t := obj.GetTypeMeta()
		t.APIVersion, t.Kind = r.APIVersion(), r.Kind
	}
	return nil
}

// Encode writes obj as JSON, the form the apiserver stores in etcd and serves.
func Encode(obj Object) ([]byte, error) {
	return json.Marshal(obj)
}

// EncodeYAML writes obj as YAML with sorted keys, as "kubectl get -o yaml" shows it.
func EncodeYAML(obj Object) ([]byte, error) {
	return yaml.Marshal(obj)
}

// document is one YAML document of a manifest and the line of data on which it starts.
type document struct {
	data []byte
	line int // 1-based
}

// splitDocuments cuts data at lines that are "---" followed only by spaces, as kubectl's YAML reader
// does. A JSON input (its first non-blank byte is '{') is one document. The result is never empty.
func splitDocuments(data []byte) []document {
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		return []document{{data: data, line: 1}}
	}
	var docs []document
	start, startLine, line := 0, 1, 1
	for pos := 0; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			next = pos + end + 1
		}
		text := data[pos:next]
		if rest, ok := bytes.CutPrefix(text, []byte("---")); ok && len(bytes.TrimSpace(rest)) == 0 {
			docs = append(docs, document{data: data[start:pos], line: startLine})
			start, startLine = next, line+1
		}
		pos = next
	}
	docs = append(docs, document{data: data[start:], line: startLine})
	// Drop empty documents (a leading "---", a trailing one), but keep one so the caller has a document.
	kept := docs[:0]
	for _, d := range docs {
		if !blankYAML(d.data) {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		return docs[:1]
	}
	return kept
}

// blankYAML reports whether data holds nothing but spaces and comments.
func blankYAML(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) > 0 && l[0] != '#' {
			return false
		}
	}
	return true
}

func decodeDocument(doc document) (Object, error) {
	j, err := toJSON(doc)
	if err != nil {
		return nil, err
	}
	if string(j) == "null" {
		return nil, nil
	}
	tm, err := peekTypeMeta(j)
	if err != nil {
		return nil, err
	}
	switch {
	case tm.Kind == "":
		return nil, &MissingFieldError{Field: "Kind", Data: shorten(j)}
	case tm.APIVersion == "":
		return nil, &MissingFieldError{Field: "apiVersion", Data: shorten(j)}
	}
	r, ok := ResourceForKind(tm.APIVersion, tm.Kind)
	if !ok {
		return nil, &NoKindMatchError{APIVersion: tm.APIVersion, Kind: tm.Kind}
	}
	obj := r.New()
	if err := unmarshalStrict(j, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// toJSON converts one document to JSON. JSON passes through untouched, so that its duplicate fields
// reach the strict check; YAML goes through sigs.k8s.io/yaml, whose errors carry a line number
// within the document, here shifted to a line number within the whole input.
func toJSON(doc document) ([]byte, error) {
	if trimmed := bytes.TrimSpace(doc.data); len(trimmed) > 0 && trimmed[0] == '{' {
		return doc.data, nil
	}
	j, err := yaml.YAMLToJSONStrict(doc.data)
	if err != nil {
		msg := yamlLine.ReplaceAllStringFunc(err.Error(), func(m string) string {
			n, _ := strconv.Atoi(m[len("line "):])
			return "line " + strconv.Itoa(n+doc.line-1)
		})
		return nil, fmt.Errorf("error converting YAML to JSON: %s", msg)
	}
	return j, nil
}

// peekTypeMeta checks that j is a valid JSON object and reads its apiVersion and kind, matching
// their names exactly as Kubernetes does.
func peekTypeMeta(j []byte) (TypeMeta, error) {
	if !json.Valid(j) {
		var v any
		return TypeMeta{}, jsonError(j, json.Unmarshal(j, &v))
	}
	s := jsonScanner{data: j}
	if s.peek() != '{' {
		return TypeMeta{}, fmt.Errorf("expected an object, got %s", shorten(j))
	}
	var tm TypeMeta
	s.pos++
	for s.more('}') {
		key := s.str()
		s.ws()
		s.pos++ // ':'
		var into *string
		switch key {
		case "apiVersion":
			into = &tm.APIVersion
		case "kind":
			into = &tm.Kind
		default:
			s.skipValue()
			continue
		}
		start := s.pos
		s.skipValue()
		if err := json.Unmarshal(j[start:s.pos], into); err != nil {
			return TypeMeta{}, fmt.Errorf("%s must be a string, got %s", key, j[start:s.pos])
		}
	}
	return tm, nil
}

// unmarshalStrict decodes j into obj, then reports the fields obj's type lacks. Type errors come
// first, as in the apiserver: a value of the wrong type fails the request whatever else is wrong.
func unmarshalStrict(j []byte, obj Object) error {
	if err := json.Unmarshal(j, obj); err != nil {
		return jsonError(j, err)
	}
	if problems := strictCheck(j, reflect.TypeOf(obj)); len(problems) > 0 {
		return &StrictDecodingError{Errors: problems}
	}
	return nil
}

// jsonError adds the line to a JSON syntax error, which encoding/json reports only as a byte offset.
func jsonError(j []byte, err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		line := 1 + bytes.Count(j[:min(int(syntax.Offset), len(j))], []byte("\n"))
		return fmt.Errorf("invalid JSON at line %d: %w", line, err)
	}
	return err
}

// shorten returns j for an error message, cut to a readable length.
func shorten(j []byte) string {
	const max = 120
	if len(j) <= max {
		return string(j)
	}
	return string(j[:max]) + "..."
}

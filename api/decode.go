// decode.go: reading and writing manifests (apimachinery's serializers, with the apiserver's strict
// field validation). Interface: Decode, DecodeWithWarnings, DecodeInto, Encode, EncodeYAML, and the
// errors NoKindMatchError, MissingFieldError and StrictDecodingError.
//
// Kubernetes rejects what it does not understand: since 1.27 kubectl asks the apiserver for strict
// field validation, and a misspelt field fails the request instead of vanishing. kubesim does the same,
// in the apiserver's words. kubesim also omits many fields that Kubernetes has: a manifest that uses
// one is valid and loads, and the field is named in a warning rather than silently run without.
//
// Decoding goes: split YAML documents at "---" lines; convert each to JSON (sigs.k8s.io/yaml, as the
// apiserver's YAML serializer does, once leniently and once strictly to find duplicate keys); look up
// apiVersion and kind in the scheme; unmarshal into the typed object with sigs.k8s.io/json, which
// matches keys exactly; then walk the JSON against the Go type to find every field that is unknown,
// duplicated, or known to Kubernetes but not simulated (strict.go, unmodelled.go).
package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	kjson "sigs.k8s.io/json"
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
// Each document must name an apiVersion and kind the scheme knows and use only fields of Kubernetes'
// schema for that kind. Empty documents are skipped. An error in a later document is prefixed with its
// number. Fields that Kubernetes has and kubesim does not simulate are dropped; DecodeWithWarnings
// names them.
func Decode(data []byte) ([]Object, error) {
	objs, _, err := DecodeWithWarnings(data)
	return objs, err
}

// DecodeWithWarnings is Decode, and also returns one warning for each field of the manifest that
// Kubernetes v1.34 accepts but kubesim does not simulate, in the words kubectl prints after "Warning:":
// `kubesim does not simulate field "spec.initContainers"; it is ignored`.
func DecodeWithWarnings(data []byte) ([]Object, []string, error) {
	docs := splitDocuments(data)
	var objs []Object
	var warnings []string
	for i, doc := range docs {
		obj, docWarnings, err := decodeDocument(doc)
		prefix := ""
		if len(docs) > 1 {
			prefix = fmt.Sprintf("document %d: ", i+1)
		}
		if err != nil {
			if prefix != "" {
				err = fmt.Errorf("%s%w", prefix, err)
			}
			return nil, nil, err
		}
		for _, w := range docWarnings {
			warnings = append(warnings, prefix+w)
		}
		if obj != nil {
			objs = append(objs, obj)
		}
	}
	return objs, warnings, nil
}

// DecodeInto reads one document (YAML or JSON) into obj, replacing its contents, with the same strict
// checks as Decode (and, like Decode, dropping the fields kubesim does not simulate). apiVersion and
// kind may be omitted, as in a request body whose URL already says what it is; if present they must
// match obj's kind. A registered kind's TypeMeta is filled in.
func DecodeInto(data []byte, obj Object) error {
	docs := splitDocuments(data)
	if len(docs) > 1 {
		return fmt.Errorf("expected a single document, found %d", len(docs))
	}
	j, yamlProblem, err := toJSON(docs[0])
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
	if _, err := unmarshalStrict(j, yamlProblem, obj); err != nil {
		return err
	}
	if registered {
		t := obj.GetTypeMeta()
		t.APIVersion, t.Kind = r.APIVersion(), r.Kind
	}
	return nil
}

// Encode writes obj as JSON, the form the apiserver stores in etcd and serves: byte for byte what
// json.Marshal writes, through the encoders generated for the registered kinds (encode.go).
func Encode(obj Object) ([]byte, error) {
	return encodeJSON(obj)
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

func decodeDocument(doc document) (Object, []string, error) {
	j, yamlProblem, err := toJSON(doc)
	if err != nil {
		return nil, nil, err
	}
	if string(j) == "null" {
		return nil, nil, nil
	}
	tm, err := peekTypeMeta(j)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case tm.Kind == "":
		return nil, nil, &MissingFieldError{Field: "Kind", Data: shorten(j)}
	case tm.APIVersion == "":
		return nil, nil, &MissingFieldError{Field: "apiVersion", Data: shorten(j)}
	}
	r, ok := ResourceForKind(tm.APIVersion, tm.Kind)
	if !ok {
		return nil, nil, &NoKindMatchError{APIVersion: tm.APIVersion, Kind: tm.Kind}
	}
	obj := r.New()
	warnings, err := unmarshalStrict(j, yamlProblem, obj)
	if err != nil {
		return nil, nil, err
	}
	return obj, warnings, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// toJSON converts one document to JSON. JSON passes through untouched, so that its duplicate fields
// reach the strict check. YAML is converted as the apiserver converts it (sigs.k8s.io/yaml, the last
// of duplicate keys winning), then converted again strictly: a duplicate key makes yamlProblem, the
// first problem of the strict decoding error (`yaml: unmarshal errors:` then `line 5: key "name"
// already set in map`, lines counted within the document as the apiserver counts them). A syntax
// error carries a line number within the whole input.
func toJSON(doc document) (j []byte, yamlProblem string, err error) {
	if trimmed := bytes.TrimSpace(doc.data); len(trimmed) > 0 && trimmed[0] == '{' {
		return doc.data, "", nil
	}
	j, err = yaml.YAMLToJSON(doc.data)
	if err != nil {
		msg := yamlLine.ReplaceAllStringFunc(err.Error(), func(m string) string {
			n, _ := strconv.Atoi(m[len("line "):])
			return "line " + strconv.Itoa(n+doc.line-1)
		})
		return nil, "", fmt.Errorf("error converting YAML to JSON: %s", msg)
	}
	if _, err := yaml.YAMLToJSONStrict(doc.data); err != nil {
		yamlProblem = err.Error()
	}
	return j, yamlProblem, nil
}

// peekTypeMeta checks that j is a valid JSON object and reads its apiVersion and kind. As in
// Kubernetes, which finds them with encoding/json, the keys match whatever their case ("apiversion")
// and the last match wins; the strict check then reports a miscased key as unknown.
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
		switch {
		case strings.EqualFold(key, "apiVersion"):
			into = &tm.APIVersion
		case strings.EqualFold(key, "kind"):
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

// unmarshalStrict decodes j into obj, then reports the fields obj's type lacks, after yamlProblem if
// there is one. It decodes as the apiserver does, with sigs.k8s.io/json: keys match field names
// exactly (encoding/json alone would read "Spec" as spec), and type errors come first, so a value of
// the wrong type fails the request whatever else is wrong. It returns the warnings about fields kubesim does not simulate.
func unmarshalStrict(j []byte, yamlProblem string, obj Object) ([]string, error) {
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, obj); err != nil {
		return nil, jsonError(j, err)
	}
	problems, warnings := strictCheck(j, reflect.TypeOf(obj))
	if yamlProblem != "" {
		problems = append([]string{yamlProblem}, problems...)
	}
	if len(problems) > 0 {
		return nil, &StrictDecodingError{Errors: problems}
	}
	return warnings, nil
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

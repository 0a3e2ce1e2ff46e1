// jsonpatch.go: JSON Patch (RFC 6902), the form in which a mutating admission webhook answers:
// a list of operations on the object's JSON, each at a JSON Pointer (RFC 6901) path:
//
//	[{"op": "add", "path": "/spec/containers/-", "value": {"name": "sidecar", "image": "..."}},
//	 {"op": "replace", "path": "/metadata/labels/injected", "value": "true"}]
//
//	applyJSONPatch(doc, patch) (patched, error)   apply every operation, or none
//	describeJSONPatch(patch) string               "add /spec/containers/-, replace /metadata/labels/injected", for the trace
//
// All six operations are supported: add, remove, replace, move, copy, test. Kubernetes applies
// webhook patches with the same semantics (evanphx/json-patch).
package apiserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// patchOperation is one RFC 6902 operation.
type patchOperation struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// applyJSONPatch applies patch to the JSON document doc and returns the result. An operation that
// fails (a path that does not exist, a failed test) fails the whole patch.
func applyJSONPatch(doc, patch []byte) ([]byte, error) {
	var ops []patchOperation
	if err := json.Unmarshal(patch, &ops); err != nil {
		return nil, fmt.Errorf("the patch is not a JSON Patch: %w", err)
	}
	var root any
	if err := json.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	for i, op := range ops {
		var err error
		if root, err = applyOperation(root, op); err != nil {
			return nil, fmt.Errorf("operation %d (%s %s): %w", i, op.Op, op.Path, err)
		}
	}
	return json.Marshal(root)
}

func applyOperation(root any, op patchOperation) (any, error) {
	var value any
	if op.Op == "add" || op.Op == "replace" || op.Op == "test" {
		if len(op.Value) == 0 {
			return nil, fmt.Errorf("missing value")
		}
		if err := json.Unmarshal(op.Value, &value); err != nil {
			return nil, err
		}
	}
	switch op.Op {
	case "add":
		return set(root, op.Path, value, true)
	case "remove":
		root, _, err := remove(root, op.Path)
		return root, err
	case "replace":
		if _, err := get(root, op.Path); err != nil {
			return nil, err
		}
		return set(root, op.Path, value, false)
	case "move":
		root, moved, err := remove(root, op.From)
		if err != nil {
			return nil, err
		}
		return set(root, op.Path, moved, true)
	case "copy":
		v, err := get(root, op.From)
		if err != nil {
			return nil, err
		}
		return set(root, op.Path, deepCopyJSON(v), true)
	case "test":
		v, err := get(root, op.Path)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(v, value) {
			return nil, fmt.Errorf("test failed: the value differs")
		}
		return root, nil
	}
	return nil, fmt.Errorf("unknown operation %q", op.Op)
}

// pointer splits a JSON Pointer into its unescaped tokens ("" is the whole document).
func pointer(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("path %q does not start with /", path)
	}
	tokens := strings.Split(path[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens, nil
}

// get returns the value at path.
func get(root any, path string) (any, error) {
	tokens, err := pointer(path)
	if err != nil {
		return nil, err
	}
	cur := root
	for _, t := range tokens {
		if cur, err = child(cur, t); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

func child(node any, token string) (any, error) {
	switch n := node.(type) {
	case map[string]any:
		v, ok := n[token]
		if !ok {
			return nil, fmt.Errorf("no member %q", token)
		}
		return v, nil
	case []any:
		i, err := index(token, len(n))
		if err != nil {
			return nil, err
		}
		return n[i], nil
	}
	return nil, fmt.Errorf("cannot descend into a scalar at %q", token)
}

// index parses an array index that must name an existing element.
func index(token string, length int) (int, error) {
	i, err := strconv.Atoi(token)
	if err != nil || i < 0 || i >= length || (len(token) > 1 && token[0] == '0') {
		return 0, fmt.Errorf("index %q out of range (length %d)", token, length)
	}
	return i, nil
}

// set puts value at path: with insert (add), into an array it inserts before the index ("-"
// appends); otherwise (replace) it overwrites. It returns the new root.
func set(root any, path string, value any, insert bool) (any, error) {
	tokens, err := pointer(path)
	if err != nil {
		return nil, err
	}
	if len(tokens) == 0 {
		return value, nil
	}
	return setIn(root, tokens, value, insert)
}

func setIn(node any, tokens []string, value any, insert bool) (any, error) {
	token := tokens[0]
	if len(tokens) > 1 {
		next, err := child(node, token)
		if err != nil {
			return nil, err
		}
		updated, err := setIn(next, tokens[1:], value, insert)
		if err != nil {
			return nil, err
		}
		return setIn(node, tokens[:1], updated, false)
	}
	switch n := node.(type) {
	case map[string]any:
		n[token] = value
		return n, nil
	case []any:
		if insert {
			i := len(n)
			if token != "-" {
				var err error
				if i, err = index(token, len(n)+1); err != nil { // inserting at len(n) appends
					return nil, fmt.Errorf("index %q out of range (length %d)", token, len(n))
				}
			}
			return slices.Insert(n, i, value), nil
		}
		i, err := index(token, len(n))
		if err != nil {
			return nil, err
		}
		n[i] = value
		return n, nil
	}
	return nil, fmt.Errorf("cannot set %q in a scalar", token)
}

// remove deletes the value at path and returns the new root and the removed value.
func remove(root any, path string) (any, any, error) {
	tokens, err := pointer(path)
	if err != nil || len(tokens) == 0 {
		return nil, nil, fmt.Errorf("cannot remove the whole document")
	}
	parentPath := ""
	if len(tokens) > 1 {
		parentPath = "/" + strings.Join(escape(tokens[:len(tokens)-1]), "/")
	}
	parent, err := get(root, parentPath)
	if err != nil {
		return nil, nil, err
	}
	last := tokens[len(tokens)-1]
	removed, err := child(parent, last)
	if err != nil {
		return nil, nil, err
	}
	var updated any
	switch p := parent.(type) {
	case map[string]any:
		delete(p, last)
		updated = p
	case []any:
		i, _ := index(last, len(p))
		updated = append(p[:i:i], p[i+1:]...)
	}
	if len(tokens) == 1 {
		return updated, removed, nil
	}
	root, err = setIn(root, tokens[:len(tokens)-1], updated, false)
	return root, removed, err
}

// escape turns tokens back into JSON Pointer form.
func escape(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return out
}

// deepCopyJSON copies a decoded JSON value, so that copy does not alias.
func deepCopyJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// describeJSONPatch lists a patch's operations for the trace: "add /spec/containers/-".
func describeJSONPatch(patch []byte) string {
	var ops []patchOperation
	if json.Unmarshal(patch, &ops) != nil {
		return "an unreadable patch"
	}
	parts := make([]string, len(ops))
	for i, op := range ops {
		parts[i] = op.Op + " " + op.Path
	}
	return strings.Join(parts, ", ")
}

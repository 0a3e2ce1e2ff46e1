// fieldset.go: field sets, the FieldsV1 form in which metadata.managedFields says which fields a
// manager holds, and the walks over JSON objects that server-side apply needs (apply.go).
//
//	{"f:metadata":{"f:labels":{"f:app":{}}},
//	 "f:spec":{"f:replicas":{},
//	           "f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}
//
// A path is a list of elements: "f:NAME" a field, "k:{KEY}" a list item by its merge key, "." the item
// itself; a leaf is an empty set.
//
//	fieldsOf(config, schema) fieldSet    the fields a configuration sets
//	(fieldSet).leaves, owns, drop        walk, test, remove a path
//	valueAt, removeAt                    read, delete a path in a JSON object
//	mergeMaps(live, config, schema)      the configuration merged into the live object
//	pathString(path)                     `.spec.template.spec.containers[name="web"].image`
package httpfront

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// fieldSet is a FieldsV1 set: one key per path element, an empty set for a leaf.
type fieldSet map[string]fieldSet

// fieldsOf is the set of fields cfg sets: every leaf value, every item of a list with a merge key
// (with its key and "."), and atomic lists and empty objects as leaves.
func fieldsOf(cfg map[string]any, meta strategicpatch.LookupPatchMeta) fieldSet {
	set := fieldSet{}
	for k, v := range cfg {
		el := "f:" + k
		switch x := v.(type) {
		case map[string]any:
			set[el] = fieldsOf(x, fieldMeta(meta, k))
		case []any:
			key, itemMeta := listMeta(meta, k)
			items := fieldSet{}
			for _, it := range x {
				m, ok := it.(map[string]any)
				if key == "" || !ok || m[key] == nil {
					items = fieldSet{} // atomic: the list is one leaf
					break
				}
				child := fieldsOf(m, itemMeta)
				child["."] = fieldSet{}
				items[itemKey(key, m[key])] = child
			}
			set[el] = items
		default:
			set[el] = fieldSet{}
		}
	}
	return set
}

// fieldsOf on the applier's kind.
func (a applier) fieldsOf(cfg map[string]any) fieldSet { return fieldsOf(cfg, a.schema) }

// itemKey is the path element of a list item by its merge key: k:{"name":"web"}.
func itemKey(key string, value any) string {
	b, _ := json.Marshal(map[string]any{key: value})
	return "k:" + string(b)
}

// leaves calls fn with the path of every leaf, in sorted order. fn may keep the path.
func (s fieldSet) leaves(prefix []string, fn func(path []string)) {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := append(append([]string(nil), prefix...), k)
		if len(s[k]) == 0 {
			fn(p)
		} else {
			s[k].leaves(p, fn)
		}
	}
}

// owns reports whether the set holds path p: p itself, something below it, or an atomic field above
// it.
func (s fieldSet) owns(p []string) bool {
	node := s
	for _, el := range p {
		child, ok := node[el]
		if !ok {
			return false
		}
		if len(child) == 0 {
			return true
		}
		node = child
	}
	return true
}

// drop removes path p from the set (or the atomic field above it), and every parent it leaves empty,
// so that no emptied parent turns into a leaf.
func (s fieldSet) drop(p []string) {
	if len(p) == 0 {
		return
	}
	child, ok := s[p[0]]
	if !ok {
		return
	}
	if len(child) > 0 && len(p) > 1 {
		child.drop(p[1:])
		if len(child) > 0 {
			return
		}
	}
	delete(s, p[0])
}

// valueAt reads path p in a JSON value; "." is the list item itself.
func valueAt(v any, p []string) (any, bool) {
	for _, el := range p {
		switch {
		case el == ".":
			return v, true
		case strings.HasPrefix(el, "f:"):
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[el[2:]]; !ok {
				return nil, false
			}
		case strings.HasPrefix(el, "k:"):
			list, _ := v.([]any)
			i := findItem(list, el)
			if i < 0 {
				return nil, false
			}
			v = list[i]
		}
	}
	return v, true
}

// removeAt deletes path p from a JSON value and returns the value (a list shrinks when "." goes).
func removeAt(v any, p []string) any {
	if len(p) == 0 {
		return v
	}
	switch el := p[0]; {
	case strings.HasPrefix(el, "f:"):
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		if len(p) == 1 {
			delete(m, el[2:])
		} else if child, ok := m[el[2:]]; ok {
			m[el[2:]] = removeAt(child, p[1:])
		}
		return m
	case strings.HasPrefix(el, "k:"):
		list, _ := v.([]any)
		i := findItem(list, el)
		if i < 0 {
			return v
		}
		if len(p) == 2 && p[1] == "." {
			return append(list[:i:i], list[i+1:]...)
		}
		list[i] = removeAt(list[i], p[1:])
		return list
	}
	return v
}

// findItem is the index of the list item a k:{...} element names, or -1.
func findItem(list []any, el string) int {
	var key map[string]any
	if json.Unmarshal([]byte(el[2:]), &key) != nil {
		return -1
	}
	for i, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		match := true
		for k, want := range key {
			match = match && reflect.DeepEqual(m[k], want)
		}
		if match {
			return i
		}
	}
	return -1
}

// mergeMaps merges cfg into live (which it modifies and returns): objects field by field, lists with a
// merge key item by item (a new item is appended), everything else replaced.
func mergeMaps(live, cfg map[string]any, meta strategicpatch.LookupPatchMeta) map[string]any {
	for k, v := range cfg {
		switch x := v.(type) {
		case map[string]any:
			if l, ok := live[k].(map[string]any); ok {
				live[k] = mergeMaps(l, x, fieldMeta(meta, k))
				continue
			}
		case []any:
			key, itemMeta := listMeta(meta, k)
			if l, ok := live[k].([]any); ok && key != "" {
				live[k] = mergeList(l, x, key, itemMeta)
				continue
			}
		}
		live[k] = v
	}
	return live
}

// mergeList merges each configured item into the live item with the same key, or appends it.
func mergeList(live, cfg []any, key string, meta strategicpatch.LookupPatchMeta) []any {
	for _, it := range cfg {
		m, ok := it.(map[string]any)
		if !ok {
			return cfg // not a list of objects after all: atomic
		}
		if i := findItem(live, itemKey(key, m[key])); i >= 0 {
			if l, ok := live[i].(map[string]any); ok {
				live[i] = mergeMaps(l, m, meta)
				continue
			}
		}
		live = append(live, m)
	}
	return live
}

// pathString writes a path as structured-merge-diff prints it in a conflict:
// .spec.template.spec.containers[name="web"].image
func pathString(p []string) string {
	var b strings.Builder
	for _, el := range p {
		switch {
		case strings.HasPrefix(el, "f:"):
			b.WriteString("." + el[2:])
		case strings.HasPrefix(el, "k:"):
			var key map[string]any
			json.Unmarshal([]byte(el[2:]), &key)
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(key)) {
				v, _ := json.Marshal(key[k])
				parts = append(parts, k+"="+string(v))
			}
			b.WriteString("[" + strings.Join(parts, ",") + "]")
		}
	}
	return b.String()
}

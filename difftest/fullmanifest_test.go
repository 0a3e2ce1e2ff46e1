// fullmanifest_test.go writes, for every kind both sides know, a manifest
// that sets every field of k8s.io/api's v1.34 type (one element in each list
// and map), and checks that the apiserver's strict decoder and kubesim's both
// load it, kubesim warning only about the fields it lists as unmodelled.
package difftest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"kubesim/api"
)

// scalarValues are the JSON values of Kubernetes' types that read their own
// JSON.
var scalarValues = map[reflect.Type]any{
	reflect.TypeFor[resource.Quantity]():    "1",
	reflect.TypeFor[metav1.Time]():          "2025-01-02T03:04:05Z",
	reflect.TypeFor[metav1.MicroTime]():     "2025-01-02T03:04:05.000000Z",
	reflect.TypeFor[metav1.Duration]():      "1s",
	reflect.TypeFor[intstr.IntOrString]():   1,
	reflect.TypeFor[runtime.RawExtension](): map[string]any{},
	reflect.TypeFor[metav1.FieldsV1]():      map[string]any{},
	reflect.TypeFor[[]byte]():               "eA==",
}

// fullValue returns a JSON value for t with every field set, stopping at
// types already on the path (recursive types) and counting the fields.
func fullValue(t reflect.Type, onPath map[reflect.Type]bool, fields *int) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v, ok := scalarValues[t]; ok {
		return v
	}
	switch t.Kind() {
	case reflect.Struct:
		if onPath[t] {
			return map[string]any{}
		}
		onPath[t] = true
		defer delete(onPath, t)
		obj := map[string]any{}
		for name, ft := range jsonFieldTypes(t) {
			*fields++
			obj[name] = fullValue(ft, onPath, fields)
		}
		return obj
	case reflect.Slice, reflect.Array:
		return []any{fullValue(t.Elem(), onPath, fields)}
	case reflect.Map:
		return map[string]any{"k": fullValue(t.Elem(), onPath, fields)}
	case reflect.String:
		return "x"
	case reflect.Bool:
		return true
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Int16, reflect.Int8:
		return 1
	}
	return nil
}

func TestEveryKubernetesFieldLoads(t *testing.T) {
	total := 0
	pairs := kindPairs(t)
	for _, p := range pairs {
		fields := 0
		doc := fullValue(p.k8s, map[reflect.Type]bool{}, &fields).(map[string]any)
		doc["apiVersion"], doc["kind"] = p.apiVersion, p.kind
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := jsonDecoder.Decode(data, nil, nil); err != nil {
			t.Errorf("%s: the apiserver's decoder refuses the generated manifest: %v", p.kind, err)
			continue
		}
		_, warnings, err := api.DecodeWithWarnings(data)
		if err != nil {
			t.Errorf("%s: a manifest with every Kubernetes field does not load: %v", p.kind, err)
			continue
		}
		for _, w := range warnings {
			if !strings.HasPrefix(w, "kubesim does not simulate field ") {
				t.Errorf("%s: unexpected warning %q", p.kind, w)
			}
		}
		total += fields
	}
	t.Logf("loaded %d manifests setting %d fields in all", len(pairs), total)
}

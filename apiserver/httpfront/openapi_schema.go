// openapi_schema.go: the schemas (components.schemas) of the OpenAPI v3 documents, which `kubectl
// explain pod.spec.containers` reads. kube-apiserver serves schemas generated at build time from
// k8s.io/api's Go types and their doc comments (k8s.io/kubernetes/pkg/generated/openapi, which only
// k8s.io/kubernetes has). kubesim builds equivalent ones when first asked, by walking the same
// k8s.io/api types (kubeScheme's) with reflection: a property per JSON field, its description from the
// type's SwaggerDoc (the same doc comments, which k8s.io/api ships), a $ref per struct, named as
// Kubernetes names them (io.k8s.api.core.v1.PodSpec), and each kind marked with its
// x-kubernetes-group-version-kind, which is how kubectl finds it.
//
//	buildSchemas(kinds) map[string]any    components.schemas for a group-version's kinds
//
// What it simplifies: no required lists, defaults, enums or list types (x-kubernetes-list-type),
// which the generated schemas take from code markers that reflection cannot see; the strategic merge
// extensions (x-kubernetes-patch-merge-key, -patch-strategy) come from the struct tags, so kubectl
// builds its patches as before. The schemas are Kubernetes' types, so `kubectl explain` also lists
// the fields kubesim accepts but does not simulate (api/unmodelled.go names them).
package httpfront

import (
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// inlineSchemas are the types Kubernetes' schemas describe as strings or free objects, not as their
// Go structs.
var inlineSchemas = map[reflect.Type]map[string]any{
	reflect.TypeFor[metav1.Time]():          {"type": "string", "format": "date-time"},
	reflect.TypeFor[metav1.MicroTime]():     {"type": "string", "format": "date-time"},
	reflect.TypeFor[metav1.Duration]():      {"type": "string"},
	reflect.TypeFor[runtime.RawExtension](): {"type": "object"},
	reflect.TypeFor[metav1.FieldsV1]():      {"type": "object"},
	reflect.TypeFor[runtime.TypeMeta]():     {"type": "object"},
}

// oneOfSchemas are the types that are one of two JSON types: their schemas have no type of their own,
// so kubectl names them by their schema (<IntOrString>, <Quantity>), as it does for Kubernetes' own.
var oneOfSchemas = map[reflect.Type]map[string]any{
	reflect.TypeFor[intstr.IntOrString](): {"x-kubernetes-int-or-string": true,
		"oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}},
	reflect.TypeFor[resource.Quantity](): {"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}},
}

// schemaBuilder collects the definitions one document needs.
type schemaBuilder struct {
	schemas map[string]any // name -> schema
}

// buildSchemas returns components.schemas for the kinds of one group-version: each kind's schema and
// every schema it refers to.
func buildSchemas(kinds []schema.GroupVersionKind) map[string]any {
	b := &schemaBuilder{schemas: map[string]any{}}
	for _, gvk := range kinds {
		obj, err := kubeScheme.New(gvk)
		if err != nil {
			continue // a kind kubesim serves that k8s.io/api does not have: no schema
		}
		t := reflect.TypeOf(obj).Elem()
		name := b.define(t)
		s := b.schemas[name].(map[string]any)
		s["x-kubernetes-group-version-kind"] = []map[string]string{{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind}}
	}
	return b.schemas
}

// schemaName is Kubernetes' name of a type's schema: k8s.io/api/core/v1.PodSpec is
// io.k8s.api.core.v1.PodSpec.
func schemaName(t reflect.Type) string {
	host, rest, _ := strings.Cut(t.PkgPath(), "/")
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".") + "." + strings.ReplaceAll(rest, "/", ".") + "." + t.Name()
}

// typeSchema is the schema of a field's type: inline for scalars, lists and maps, a $ref for a struct.
func (b *schemaBuilder) typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s := inlineSchemas[t]; s != nil {
		out := make(map[string]any, len(s))
		for k, v := range s {
			out[k] = v
		}
		return out
	}
	if s := oneOfSchemas[t]; s != nil {
		b.schemas[schemaName(t)] = s
		return map[string]any{"$ref": "#/components/schemas/" + schemaName(t)}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int32, reflect.Uint32, reflect.Int16, reflect.Uint16, reflect.Int8, reflect.Uint8:
		return map[string]any{"type": "integer", "format": "int32"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number", "format": "double"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": b.typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": b.typeSchema(t.Elem())}
	case reflect.Struct:
		return map[string]any{"$ref": "#/components/schemas/" + b.define(t)}
	}
	return map[string]any{"type": "object"}
}

// define adds the schema of struct type t, and of every struct it refers to, and returns its name.
func (b *schemaBuilder) define(t reflect.Type) string {
	name := schemaName(t)
	if _, done := b.schemas[name]; done {
		return name
	}
	s := map[string]any{"type": "object"}
	b.schemas[name] = s // before the fields: a type may refer to itself
	if d := swaggerDoc(t)[""]; d != "" {
		s["description"] = d
	}
	props := map[string]any{}
	b.addFields(t, props)
	s["properties"] = props
	return name
}

// addFields adds a property per JSON field of t, those of inlined embedded structs included.
func (b *schemaBuilder) addFields(t reflect.Type, props map[string]any) {
	docs := swaggerDoc(t)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			b.addFields(ft, props)
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := b.typeSchema(f.Type)
		if ref, ok := p["$ref"]; ok {
			// Kubernetes' v3 documents wrap a reference that carries a description in allOf.
			p = map[string]any{"allOf": []any{map[string]any{"$ref": ref}}}
		}
		if d := docs[name]; d != "" {
			p["description"] = d
		}
		if v := f.Tag.Get("patchStrategy"); v != "" {
			p["x-kubernetes-patch-strategy"] = v
		}
		if v := f.Tag.Get("patchMergeKey"); v != "" {
			p["x-kubernetes-patch-merge-key"] = v
		}
		props[name] = p
	}
}

// swaggerDoc is the type's documentation as k8s.io/api ships it: "" for the type, a JSON field name
// for each field.
func swaggerDoc(t reflect.Type) map[string]string {
	if d, ok := reflect.New(t).Interface().(interface{ SwaggerDoc() map[string]string }); ok {
		return d.SwaggerDoc()
	}
	return nil
}

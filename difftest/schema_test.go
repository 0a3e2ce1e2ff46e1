// schema_test.go holds kubesim's types against k8s.io/api's v1.34 types:
// every JSON field of every Kubernetes kind kubesim registers must either
// exist in kubesim's type or be listed as known but unmodelled
// (api.UnmodelledFields), so that a real manifest loads and what kubesim
// ignores is named in a warning, never rejected as a typo.
package difftest

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kubesim/api"
)

// k8sScheme knows every group kubesim serves.
var k8sScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, rbacv1.AddToScheme, coordinationv1.AddToScheme,
		schedulingv1.AddToScheme, admissionregistrationv1.AddToScheme, autoscalingv1.AddToScheme,
		autoscalingv2.AddToScheme, policyv1.AddToScheme, storagev1.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// kindPair is one kubesim kind and its Kubernetes type.
type kindPair struct {
	apiVersion, kind string
	sim, k8s         reflect.Type
}

// kindPairs lists the kinds both sides know.
func kindPairs(t *testing.T) []kindPair {
	var pairs []kindPair
	for _, r := range api.Resources() {
		gvk := schema.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
		obj, err := k8sScheme.New(gvk)
		if err != nil {
			t.Logf("no Kubernetes type for %s: %v", gvk, err)
			continue
		}
		pairs = append(pairs, kindPair{apiVersion: r.APIVersion(), kind: r.Kind, sim: reflect.TypeOf(r.New()).Elem(), k8s: reflect.TypeOf(obj).Elem()})
	}
	return pairs
}

// missingField is a Kubernetes field that a kubesim type neither has nor
// lists as unmodelled.
type missingField struct {
	simType reflect.Type
	field   string
	path    string
}

// schemaWalk compares Kubernetes type k with kubesim type s at path,
// recording the fields s lacks, and returns how many fields it compared.
func schemaWalk(k, s reflect.Type, path string, seen map[[2]reflect.Type]bool, missing *[]missingField) int {
	for k.Kind() == reflect.Pointer {
		k = k.Elem()
	}
	for s.Kind() == reflect.Pointer {
		s = s.Elem()
	}
	if seen[[2]reflect.Type{k, s}] {
		return 0
	}
	seen[[2]reflect.Type{k, s}] = true
	if reflect.PointerTo(s).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return 0
	}
	switch {
	case k.Kind() == reflect.Struct && s.Kind() == reflect.Struct:
		kf, sf := jsonFieldTypes(k), jsonFieldTypes(s)
		unmodelled := map[string]bool{}
		for _, f := range api.UnmodelledFields(s) {
			unmodelled[f] = true
		}
		n := 0
		for _, name := range slices.Sorted(maps.Keys(kf)) {
			n++
			at := name
			if path != "" {
				at = path + "." + name
			}
			st, ok := sf[name]
			switch {
			case ok:
				n += schemaWalk(kf[name], st, at, seen, missing)
			case !unmodelled[name]:
				*missing = append(*missing, missingField{simType: s, field: name, path: at})
			}
		}
		return n
	case (k.Kind() == reflect.Slice || k.Kind() == reflect.Map) && k.Kind() == s.Kind():
		return schemaWalk(k.Elem(), s.Elem(), path+"[]", seen, missing)
	}
	return 0
}

// jsonFieldTypes maps the JSON names of t's fields to their types, with the
// fields of embedded structs (TypeMeta, "inline") promoted.
func jsonFieldTypes(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct || strings.Contains(opts, "inline") {
			for k, v := range jsonFieldTypes(ft) {
				m[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	return m
}

func TestEveryKubernetesFieldIsModelledOrListed(t *testing.T) {
	var missing []missingField
	compared := 0
	pairs := kindPairs(t)
	for _, p := range pairs {
		compared += schemaWalk(p.k8s, p.sim, "", map[[2]reflect.Type]bool{}, &missing)
	}
	t.Logf("compared %d fields of %d kinds with k8s.io/api v0.34.1", compared, len(pairs))
	byType := map[reflect.Type][]string{}
	for _, m := range missing {
		if !contains(byType[m.simType], m.field) {
			byType[m.simType] = append(byType[m.simType], m.field)
		}
		t.Errorf("kubesim's %s lacks %q (at %s): add it, or list it in api.UnmodelledFields", m.simType, m.field, m.path)
	}
	if len(byType) > 0 {
		var b strings.Builder
		for typ, fields := range byType {
			sort.Strings(fields)
			fmt.Fprintf(&b, "\t%s: {%q},\n", typ, fields)
		}
		t.Logf("missing, by kubesim type:\n%s", b.String())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

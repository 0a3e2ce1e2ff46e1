package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/field"
)

// Metadata checks shared by every kind (apimachinery's ValidateObjectMeta).
func TestObjectMetaValidation(t *testing.T) {
	meta := field.NewPath("metadata")
	cases := []struct {
		name       string
		mutate     func(m *api.ObjectMeta)
		namespaced bool
		want       []wantErr
	}{
		{"a valid namespaced object", func(m *api.ObjectMeta) {}, true, nil},
		{"no name and no generateName", func(m *api.ObjectMeta) { m.Name = "" }, true,
			[]wantErr{{"metadata.name", field.ErrorTypeRequired}}},
		// Kubernetes reports an over-long name through the name rule's message, as Invalid.
		{"a 254-character name", func(m *api.ObjectMeta) { m.Name = longName(254) }, true,
			[]wantErr{{"metadata.name", field.ErrorTypeInvalid}}},
		{"an upper-case name", func(m *api.ObjectMeta) { m.Name = "Nginx" }, true,
			[]wantErr{{"metadata.name", field.ErrorTypeInvalid}}},
		{"a bad generateName", func(m *api.ObjectMeta) { m.GenerateName = "Web-" }, true,
			[]wantErr{{"metadata.generateName", field.ErrorTypeInvalid}}},
		{"a namespaced kind without a namespace", func(m *api.ObjectMeta) { m.Namespace = "" }, true,
			[]wantErr{{"metadata.namespace", field.ErrorTypeRequired}}},
		{"a namespace that is not a DNS label", func(m *api.ObjectMeta) { m.Namespace = "team.a" }, true,
			[]wantErr{{"metadata.namespace", field.ErrorTypeInvalid}}},
		{"a cluster-scoped kind with a namespace", func(m *api.ObjectMeta) {}, false,
			[]wantErr{{"metadata.namespace", field.ErrorTypeForbidden}}},
		{"a bad label key and a bad label value", func(m *api.ObjectMeta) { m.Labels = map[string]string{"-app": "a b"} }, true,
			[]wantErr{{"metadata.labels", field.ErrorTypeInvalid}, {"metadata.labels", field.ErrorTypeInvalid}}},
		{"a bad annotation key", func(m *api.ObjectMeta) { m.Annotations = map[string]string{"a b": ""} }, true,
			[]wantErr{{"metadata.annotations", field.ErrorTypeInvalid}}},
		{"annotations over 256 KiB", func(m *api.ObjectMeta) { m.Annotations = map[string]string{"big": strings.Repeat("x", 256*1024)} }, true,
			[]wantErr{{"metadata.annotations", field.ErrorTypeTooLong}}},
		{"an owner reference without uid", func(m *api.ObjectMeta) {
			m.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs"}}
		}, true, []wantErr{{"metadata.ownerReferences.uid", field.ErrorTypeInvalid}}},
		{"two controller owner references", func(m *api.ObjectMeta) {
			m.OwnerReferences = []api.OwnerReference{
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "a", UID: "1", Controller: api.Ptr(true)},
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "b", UID: "2", Controller: api.Ptr(true)},
			}
		}, true, []wantErr{{"metadata.ownerReferences", field.ErrorTypeInvalid}}},
		{"an Event as owner", func(m *api.ObjectMeta) {
			m.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Event", Name: "e", UID: "1"}}
		}, true, []wantErr{{"metadata.ownerReferences", field.ErrorTypeInvalid}}},
		// "/v1" is the core group too, as schema.ParseGroupVersion reads it.
		{"an Event owner written /v1", func(m *api.ObjectMeta) {
			m.OwnerReferences = []api.OwnerReference{{APIVersion: "/v1", Kind: "Event", Name: "e", UID: "1"}}
		}, true, []wantErr{{"metadata.ownerReferences", field.ErrorTypeInvalid}}},
		// k8s.io/kubernetes' core validation names the finalizer by its index.
		{"an unqualified non-standard finalizer", func(m *api.ObjectMeta) { m.Finalizers = []string{"cleanup"} }, true,
			[]wantErr{{"metadata.finalizers[0]", field.ErrorTypeInvalid}}},
		{"a qualified finalizer and a standard one", func(m *api.ObjectMeta) {
			m.Finalizers = []string{"example.com/cleanup", "foregroundDeletion"}
		}, true, nil},
		{"orphan and foregroundDeletion together", func(m *api.ObjectMeta) { m.Finalizers = []string{"orphan", "foregroundDeletion"} }, true,
			[]wantErr{{"metadata.finalizers", field.ErrorTypeInvalid}}},
		{"a negative generation", func(m *api.ObjectMeta) { m.Generation = -1 }, true,
			[]wantErr{{"metadata.generation", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := api.ObjectMeta{Name: "nginx", Namespace: "default"}
			tc.mutate(&m)
			requireErrors(t, ValidateObjectMeta(&m, tc.namespaced, NameIsDNSSubdomain, meta), tc.want...)
		})
	}
}

func TestObjectMetaMessages(t *testing.T) {
	m := api.ObjectMeta{Namespace: "default"}
	errs := ValidateObjectMeta(&m, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	assert.Equal(t, "metadata.name: Required value: name or generateName is required", errs.Error())

	m = api.ObjectMeta{Name: longName(254), Namespace: "default"}
	e := requireError(t, ValidateObjectMeta(&m, true, NameIsDNSSubdomain, field.NewPath("metadata")), "metadata.name", field.ErrorTypeInvalid)
	assert.Equal(t, "must be no more than 253 characters", e.Detail)

	m = api.ObjectMeta{Name: "n", Annotations: map[string]string{"big": strings.Repeat("x", 256*1024)}}
	assert.Equal(t, "metadata.annotations: Too long: may not be more than 262144 bytes",
		ValidateObjectMeta(&m, false, NameIsDNSSubdomain, field.NewPath("metadata")).Error())
}

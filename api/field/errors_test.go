package field

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each constructor produces the type and message Kubernetes produces for the same call
// (k8s.io/apimachinery/pkg/util/validation/field/errors.go).
func TestErrorMessagesAreWordedAsKubernetes(t *testing.T) {
	type restartPolicy string
	cases := []struct {
		name     string
		err      *Error
		wantType ErrorType
		want     string
	}{
		{"Invalid with an int64 prints the number bare",
			Invalid(NewPath("spec", "replicas"), int64(-1), "must be greater than or equal to 0"),
			ErrorTypeInvalid, "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"Invalid with an int32 prints the number bare",
			Invalid(NewPath("spec", "replicas"), int32(-1), "must be greater than or equal to 0"),
			ErrorTypeInvalid, "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"Invalid with a string quotes it",
			Invalid(NewPath("metadata", "name"), "Nginx", "bad"),
			ErrorTypeInvalid, `metadata.name: Invalid value: "Nginx": bad`},
		{"Invalid with a map prints JSON",
			Invalid(NewPath("spec", "template", "metadata", "labels"), map[string]string{"app": "web"},
				"`selector` does not match template `labels`"),
			ErrorTypeInvalid,
			"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"Invalid with a nil pointer prints null",
			Invalid(NewPath("spec", "x"), (*int32)(nil), "d"),
			ErrorTypeInvalid, "spec.x: Invalid value: null: d"},
		{"Required omits the value",
			Required(NewPath("spec", "template", "spec", "containers").Index(0).Child("image"), ""),
			ErrorTypeRequired, "spec.template.spec.containers[0].image: Required value"},
		{"Required with a detail",
			Required(NewPath("metadata", "name"), "name or generateName is required"),
			ErrorTypeRequired, "metadata.name: Required value: name or generateName is required"},
		{"NotSupported lists the supported values in order",
			NotSupported(NewPath("spec", "restartPolicy"), restartPolicy("Sometimes"),
				[]restartPolicy{"Always", "OnFailure", "Never"}),
			ErrorTypeNotSupported,
			`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`},
		{"Duplicate shows the value",
			Duplicate(NewPath("spec", "containers").Index(1).Child("name"), "web"),
			ErrorTypeDuplicate, `spec.containers[1].name: Duplicate value: "web"`},
		{"TooLong omits the value and counts bytes",
			TooLong(NewPath("metadata", "annotations"), 262144),
			ErrorTypeTooLong, "metadata.annotations: Too long: may not be more than 262144 bytes"},
		{"TooLong says byte for one",
			TooLong(NewPath("x"), 1),
			ErrorTypeTooLong, "x: Too long: may not be more than 1 byte"},
		{"Forbidden omits the value",
			Forbidden(NewPath("spec", "selector"), "field is immutable"),
			ErrorTypeForbidden, "spec.selector: Forbidden: field is immutable"},
		{"NotFound shows the value",
			NotFound(NewPath("roleRef", "name"), "viewer"),
			ErrorTypeNotFound, `roleRef.name: Not found: "viewer"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wantType, tc.err.Type)
			assert.Equal(t, tc.want, tc.err.Error())
			assert.Equal(t, tc.err.Field+": "+tc.err.ErrorBody(), tc.err.Error())
		})
	}
}

// The ErrorType values are metav1.StatusCause reasons; clients switch on these exact strings.
func TestErrorTypesAreStatusCauseReasons(t *testing.T) {
	assert.Equal(t, "FieldValueRequired", string(ErrorTypeRequired))
	assert.Equal(t, "FieldValueInvalid", string(ErrorTypeInvalid))
	assert.Equal(t, "FieldValueNotSupported", string(ErrorTypeNotSupported))
	assert.Equal(t, "FieldValueDuplicate", string(ErrorTypeDuplicate))
	assert.Equal(t, "FieldValueTooLong", string(ErrorTypeTooLong))
	assert.Equal(t, "FieldValueForbidden", string(ErrorTypeForbidden))
	assert.Equal(t, "FieldValueNotFound", string(ErrorTypeNotFound))
}

// Kubernetes' aggregate error prints one error bare, several in brackets, and each message once.
func TestErrorListJoinsLikeKubernetesAggregate(t *testing.T) {
	a := Required(NewPath("spec", "containers"), "")
	b := Invalid(NewPath("spec", "replicas"), int32(-1), "must be greater than or equal to 0")

	assert.Equal(t, "", ErrorList{}.Error())
	assert.Equal(t, "spec.containers: Required value", ErrorList{a}.Error())
	assert.Equal(t,
		"[spec.containers: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]",
		ErrorList{a, b}.Error())
	assert.Equal(t, "spec.containers: Required value", ErrorList{a, a}.Error(), "repeats are dropped")
}

func TestToAggregateIsNilOnlyForAnEmptyList(t *testing.T) {
	var empty ErrorList
	assert.NoError(t, empty.ToAggregate())

	err := ErrorList{Required(NewPath("spec"), "")}.ToAggregate()
	require.Error(t, err)
	assert.Equal(t, "spec: Required value", err.Error())
}

// A value that cannot be JSON-encoded falls back to its String method, then to Go syntax.
func TestErrorRendersUnencodableValues(t *testing.T) {
	ch := make(chan int)
	msg := Invalid(NewPath("x"), ch, "d").Error()
	assert.True(t, strings.HasPrefix(msg, "x: Invalid value: (chan int)"), msg)
	assert.Equal(t, "x: Invalid value: stringer: d", Invalid(NewPath("x"), unencodable{}, "d").Error())
}

type unencodable struct{ C chan int }

func (unencodable) String() string { return "stringer" }

// Example shows the messages a learner sees from kubectl when the apiserver rejects an object.
func Example() {
	containers := NewPath("spec", "template", "spec", "containers")
	errs := ErrorList{
		Invalid(NewPath("spec", "replicas"), int32(-1), "must be greater than or equal to 0"),
		Required(containers.Index(0).Child("image"), ""),
		NotSupported(NewPath("spec", "template", "spec", "restartPolicy"), "Sometimes",
			[]string{"Always", "OnFailure", "Never"}),
	}
	for _, e := range errs {
		fmt.Printf("%s | %s\n", string(e.Type), e)
	}
	// Output:
	// FieldValueInvalid | spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// FieldValueRequired | spec.template.spec.containers[0].image: Required value
	// FieldValueNotSupported | spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
}

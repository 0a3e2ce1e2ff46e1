package errors_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	apierrors "kubesim/api/errors"
	"kubesim/api/field"
)

func TestMessagesAreKubernetesOwn(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		msg  string
	}{
		{apierrors.NewNotFound("pods", "nginx"), 404, `pods "nginx" not found`},
		{apierrors.NewNotFound("deployments.apps", "nginx"), 404, `deployments.apps "nginx" not found`},
		{apierrors.NewAlreadyExists("pods", "nginx"), 409, `pods "nginx" already exists`},
		{apierrors.NewConflict("deployments.apps", "nginx", apierrors.OptimisticLockErrorMsg), 409,
			`Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again`},
		{apierrors.NewForbidden("pods", "", `User "alice" cannot list resource "pods" in API group "" in the namespace "default"`), 403,
			`pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`},
		{apierrors.NewUnauthorized(), 401, "Unauthorized"},
		{apierrors.NewResourceExpired("too old resource version: 5 (9)"), 410, "too old resource version: 5 (9)"},
		{apierrors.NewInternalError(fmt.Errorf("boom")), 500, "Internal error occurred: boom"},
	} {
		assert.Equal(t, c.msg, c.err.Error())
		assert.Equal(t, c.code, apierrors.CodeForError(c.err))
	}
}

func TestInvalidHasOneCausePerFieldAndSurvivesWrapping(t *testing.T) {
	errs := field.ErrorList{
		field.Invalid(field.NewPath("spec", "replicas"), -1, "must be greater than or equal to 0"),
		field.Required(field.NewPath("spec", "template", "spec", "containers").Index(0).Child("image"), ""),
	}
	err := apierrors.NewInvalid("Deployment.apps", "nginx", errs)
	assert.Equal(t, `Deployment.apps "nginx" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.containers[0].image: Required value]`, err.Error())
	causes := err.ErrStatus.Details.Causes
	assert.Equal(t, "spec.replicas", causes[0].Field)
	assert.Equal(t, "FieldValueInvalid", causes[0].Type)
	assert.Equal(t, "spec.template.spec.containers[0].image", causes[1].Field)
	assert.Equal(t, "apps", err.ErrStatus.Details.Group)
	wrapped := fmt.Errorf("creating: %w", err)
	assert.True(t, apierrors.IsInvalid(wrapped))
	assert.Equal(t, 422, apierrors.CodeForError(wrapped))
	assert.False(t, apierrors.IsNotFound(wrapped))
}

func ExampleNewConflict() {
	err := apierrors.NewConflict("deployments.apps", "nginx", apierrors.OptimisticLockErrorMsg)
	fmt.Println(apierrors.CodeForError(err), apierrors.ReasonForError(err))
	fmt.Println(err)
	// Output:
	// 409 Conflict
	// Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again
}

// Kubernetes quotes the name even when it is empty, and says nothing after "is invalid" when there
// are no field errors.
func TestMessagesWithoutANameOrCauses(t *testing.T) {
	assert.Equal(t, `pods "" not found`, apierrors.NewNotFound("pods", "").Error())
	assert.Equal(t, `pods is forbidden: no`, apierrors.NewForbidden("pods", "", "no").Error())
	assert.Equal(t, `Pod "web" is invalid`, apierrors.NewInvalid("Pod", "web", nil).Error())
}

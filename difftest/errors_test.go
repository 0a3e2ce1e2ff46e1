// errors_test.go compares kubesim's api/errors with apimachinery's
// api/errors: the same failure gives the same message, code, reason and
// details, as kubectl prints them after "Error from server".
package difftest

import (
	"errors"
	"fmt"
	"testing"

	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	simerrors "kubesim/api/errors"
	simfield "kubesim/api/field"
)

// statusView is what a client sees of a failure.
type statusView struct {
	message, reason string
	code            int32
	details         string
}

func viewK8sStatus(err *k8serrors.StatusError) statusView {
	s := err.ErrStatus
	v := statusView{message: s.Message, reason: string(s.Reason), code: s.Code}
	if s.Details != nil {
		v.details = fmt.Sprintf("%s/%s/%s %v", s.Details.Group, s.Details.Kind, s.Details.Name, s.Details.Causes)
	}
	return v
}

func viewSimStatus(err *simerrors.StatusError) statusView {
	s := err.ErrStatus
	v := statusView{message: s.Message, reason: string(s.Reason), code: s.Code}
	if s.Details != nil {
		causes := make([]string, len(s.Details.Causes))
		for i, c := range s.Details.Causes {
			causes[i] = fmt.Sprintf("{%s %s %s}", c.Type, c.Message, c.Field)
		}
		v.details = fmt.Sprintf("%s/%s/%s %v", s.Details.Group, s.Details.Kind, s.Details.Name, causes)
	}
	return v
}

func TestStatusErrors(t *testing.T) {
	cases := 0
	compare := func(what string, k *k8serrors.StatusError, s *simerrors.StatusError) {
		t.Helper()
		cases++
		if kv, sv := viewK8sStatus(k), viewSimStatus(s); kv != sv {
			t.Errorf("%s:\n kubernetes %+v\n kubesim    %+v", what, kv, sv)
		}
	}
	why := errors.New("the object has been modified; please apply your changes to the latest version and try again")
	for _, gr := range []schema.GroupResource{{Resource: "pods"}, {Group: "apps", Resource: "deployments"}} {
		for _, name := range []string{"nginx", ""} {
			at := fmt.Sprintf("%s %q", gr, name)
			compare("NotFound "+at, k8serrors.NewNotFound(gr, name), simerrors.NewNotFound(gr.String(), name))
			compare("AlreadyExists "+at, k8serrors.NewAlreadyExists(gr, name), simerrors.NewAlreadyExists(gr.String(), name))
			compare("Conflict "+at, k8serrors.NewConflict(gr, name, why), simerrors.NewConflict(gr.String(), name, why.Error()))
			compare("Forbidden "+at, k8serrors.NewForbidden(gr, name, errors.New("User \"bob\" cannot get resource")),
				simerrors.NewForbidden(gr.String(), name, "User \"bob\" cannot get resource"))
		}
		compare("MethodNotSupported "+gr.String(), k8serrors.NewMethodNotSupported(gr, "create"),
			simerrors.NewMethodNotSupported(gr.String(), "create"))
	}
	for _, gk := range []schema.GroupKind{{Kind: "Pod"}, {Group: "apps", Kind: "Deployment"}} {
		kerrs := k8sfield.ErrorList{
			k8sfield.Invalid(k8sfield.NewPath("spec", "replicas"), int32(-1), "must be greater than or equal to 0"),
			k8sfield.Required(k8sfield.NewPath("spec", "selector"), ""),
			k8sfield.NotSupported(k8sfield.NewPath("spec", "strategy", "type"), "Sometimes", []string{"Recreate", "RollingUpdate"}),
			k8sfield.Duplicate(k8sfield.NewPath("spec", "template", "spec", "containers").Index(1).Child("name"), "web"),
			k8sfield.Forbidden(k8sfield.NewPath("spec", "selector"), "field is immutable"),
		}
		serrs := simfield.ErrorList{
			simfield.Invalid(simfield.NewPath("spec", "replicas"), int32(-1), "must be greater than or equal to 0"),
			simfield.Required(simfield.NewPath("spec", "selector"), ""),
			simfield.NotSupported(simfield.NewPath("spec", "strategy", "type"), "Sometimes", []string{"Recreate", "RollingUpdate"}),
			simfield.Duplicate(simfield.NewPath("spec", "template", "spec", "containers").Index(1).Child("name"), "web"),
			simfield.Forbidden(simfield.NewPath("spec", "selector"), "field is immutable"),
		}
		for n := 0; n <= len(kerrs); n++ {
			compare(fmt.Sprintf("Invalid %s with %d errors", gk, n), k8serrors.NewInvalid(gk, "web", kerrs[:n]),
				simerrors.NewInvalid(gk.String(), "web", serrs[:n]))
		}
	}
	compare("InternalError", k8serrors.NewInternalError(errors.New("etcd is down")), simerrors.NewInternalError(errors.New("etcd is down")))
	compare("BadRequest", k8serrors.NewBadRequest("bad"), simerrors.NewBadRequest("bad"))
	compare("ResourceExpired", k8serrors.NewResourceExpired("too old resource version: 12 (40)"),
		simerrors.NewResourceExpired("too old resource version: 12 (40)"))
	// Not compared: kubesim's NewTimeout gives the message alone, where NewTimeoutError prefixes it
	// with "Timeout: "; the apiserver's callers are worded for that.
	compare("ServiceUnavailable", k8serrors.NewServiceUnavailable("etcd"), simerrors.NewServiceUnavailable("etcd"))
	compare("Unauthorized", k8serrors.NewUnauthorized("Unauthorized"), simerrors.NewUnauthorized())
	t.Logf("compared %d status errors", cases)
}

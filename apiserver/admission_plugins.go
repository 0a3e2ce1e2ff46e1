// admission_plugins.go: validating admission plugins from outside this package. Kubernetes compiles
// its admission plugins into kube-apiserver and turns them on with --enable-admission-plugins; kubesim
// takes them in Config.ValidatingAdmission, so that a learner's plugin (the "reject :latest" lab,
// examples/labs) runs at gate 5 exactly where ResourceQuota does.
//
// Interface: ValidatingAdmission, AdmissionRequest.
package apiserver

import (
	"context"
	"errors"

	"kubesim/api"
	apierrors "kubesim/api/errors"
)

// ValidatingAdmission is a validating admission plugin (admission.ValidationInterface): it sees every
// create and update after the object has passed validation and may only refuse it. It runs after the
// built-in validating plugins and before the validating webhooks. An error that is not already an API
// status is answered 403, as admission.NewForbidden does: `pods "web" is forbidden: <error>`.
type ValidatingAdmission interface {
	Name() string
	Validate(ctx context.Context, r AdmissionRequest) error
}

// AdmissionRequest is what a plugin sees of a write (admission.Attributes). Object must not be
// changed: a validating plugin only judges.
type AdmissionRequest struct {
	Operation string // "CREATE" or "UPDATE"
	Resource  string // "pods", "deployments", ...
	Namespace string
	Name      string
	User      string
	Object    api.Object
	OldObject api.Object // nil on create
}

// externalValidating runs a ValidatingAdmission among the built-in plugins.
type externalValidating struct{ p ValidatingAdmission }

func (e externalValidating) Name() string { return e.p.Name() }

func (e externalValidating) Validate(ctx context.Context, a *admissionAttributes) error {
	r := AdmissionRequest{Operation: "UPDATE", Resource: a.res.Name, Namespace: a.req.Namespace,
		Name: a.obj.GetObjectMeta().Name, User: a.user.Name, Object: a.obj, OldObject: a.old}
	if a.creating() {
		r.Operation = "CREATE"
	}
	err := e.p.Validate(ctx, r)
	var status *apierrors.StatusError
	if err == nil || errors.As(err, &status) {
		return err
	}
	return apierrors.NewForbidden(a.res.GroupResource(), r.Name, err.Error())
}

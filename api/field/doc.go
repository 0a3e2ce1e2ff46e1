// Package field says where in an object a validation error is, and what is wrong there. It mirrors
// k8s.io/apimachinery/pkg/util/validation/field: a Path such as spec.template.spec.containers[0].image,
// an Error that pairs a path with one of a handful of error types, and an ErrorList that validators
// return and the apiserver turns into a 422 Invalid Status, one StatusCause per Error.
//
// Read next: kubesim/api/validation, which produces these errors, then kubesim/api/errors.NewInvalid,
// which turns them into the message kubectl prints:
//
//	The Deployment "nginx" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// What this package promises:
//
//  1. Error() reads exactly as Kubernetes writes it: "<path>: <type>[: <bad value>][: <detail>]",
//     with the bad value quoted for strings, bare for numbers and booleans, JSON for anything else,
//     and left out for Required, Forbidden and TooLong errors.
//  2. ErrorType values are the reason strings of metav1.StatusCause ("FieldValueInvalid", ...), so
//     a client can switch on them.
//  3. ErrorList.Error() joins errors as Kubernetes' aggregate does: one error alone, several as
//     "[a, b]", repeated messages once.
//
// What it simplifies: Kubernetes' Error also carries bookkeeping for declarative validation (Origin,
// CoveredByDeclarative, stability levels); kubesim validates imperatively only, so it has none of it.
package field

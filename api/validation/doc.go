// Package validation is the apiserver's validation gate: it decides whether an object is well formed
// before it is stored, and says precisely what is wrong when it is not. It mirrors
// k8s.io/kubernetes/pkg/apis/{core,apps,rbac,coordination,scheduling}/validation together with the
// name and metadata checks of k8s.io/apimachinery/pkg/api/validation and pkg/util/validation.
//
// Read next: kubesim/api/field for how an error names its field, then the apiserver's create and
// update handlers, which call ValidateObject and ValidateObjectUpdate and turn a non-empty list into
// a 422 Invalid Status (kubesim/api/errors.NewInvalid), the error kubectl prints as
//
//	The Deployment "nginx" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`
//
// Then read one kind from top to bottom: apps.go (Deployment) shows the pattern every kind follows.
//
// What this package promises:
//
//  1. Kubernetes' rules, field paths, error types and messages, kind by kind: the same manifest is
//     rejected for the same reason, at the same field, in the same words as a real apiserver.
//  2. Each kind's name rule: DNS-1123 subdomain for most kinds, DNS-1123 label for namespaces,
//     DNS-1035 label for services, path segment for RBAC kinds.
//  3. Update rules: workload selectors, a service's cluster IP, a RoleBinding's roleRef and a
//     PriorityClass's value are fixed; a pod's spec may only change its images and add tolerations;
//     a node's pod CIDR may be set once.
//  4. Deterministic output: errors come in the same order every run (map keys are visited sorted),
//     and validation never panics on nil optional fields.
//
// What it expects: a defaulted object, as in Kubernetes, where defaults are applied before
// validation runs. Fields that defaulting always fills (restartPolicy, dnsPolicy, imagePullPolicy,
// port protocols, a service's type, a Deployment's strategy) are required here.
//
// What it simplifies: there is no declarative validation, no feature gates and no ratcheting of
// rules for objects stored by older versions; kinds and fields kubesim does not have (volumes, init
// containers, security contexts) are not checked; the pod update error omits the spec diff that
// Kubernetes appends; immutable metadata on update is left to the apiserver.
package validation

// Package fields mirrors k8s.io/apimachinery/pkg/fields: field selectors,
// the `--field-selector` of kubectl and the fieldSelector query parameter of
// list and watch.
//
// A field selector picks objects by a few fields the apiserver exposes for
// each resource (metadata.name, metadata.namespace, a pod's spec.nodeName and
// status.phase, ...). Its most important user is the kubelet: it watches
// only the pods whose spec.nodeName is its node, and the apiserver answers
// that watch from an index instead of filtering every pod.
//
// Read next: the Kubernetes page "Field Selectors"
// (https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors/),
// then the apiserver's watch cache, which calls RequiresExactMatch to pick
// an index.
//
// What it promises:
//
//   - ParseSelector reads Kubernetes' syntax: field=value, field==value,
//     field!=value, ANDed by commas, values escaped with a backslash before
//     '\', ',' and '=' (EscapeValue, UnescapeValue), and gives Kubernetes'
//     error messages.
//   - RequiresExactMatch finds a field=value term exactly as the apiserver's
//     index lookup needs.
//   - Matches does not allocate.
//
// What it simplifies:
//
//   - There is no Transform (field label conversion per API version); which
//     fields a resource supports is the apiserver's concern.
//   - The operators are labels.Equals and labels.NotEquals; Kubernetes keeps
//     them in k8s.io/apimachinery/pkg/selection.
package fields

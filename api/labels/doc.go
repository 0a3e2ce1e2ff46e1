// Package labels mirrors k8s.io/apimachinery/pkg/labels: label sets,
// selectors over them, the selector syntax of `kubectl get -l`, and the
// validation of label keys and values.
//
// Labels are how Kubernetes objects find each other: a Service selects its
// pods, a ReplicaSet counts the pods it owns, and a Deployment finds its
// ReplicaSets, all by label selector, never by name.
//
// Read next: the Kubernetes page "Labels and Selectors"
// (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/),
// then the replicaset controller, which lists pods with a Selector built by
// SelectorFromLabelSelector from spec.selector.
//
// What it promises:
//
//   - Parse reads the full syntax: a=b, a==b, a!=b, a in (x,y), a notin (x),
//     a, !a, a>1, a<1, ANDed by commas, and validates every key and value
//     with Kubernetes' rules and messages (see validation.go).
//   - Kubernetes' matching rules, including the easy-to-miss ones: a missing
//     label passes notin and != but fails in and =.
//   - Selector.String is canonical: requirements sorted by key, values sorted,
//     so Parse(s.String()) gives back the same selector.
//   - Matches does not allocate.
//
// What it simplifies:
//
//   - The selection operators live here instead of in a package of their own
//     (k8s.io/apimachinery/pkg/selection).
//   - Selector has no Add, Lookup, RequiresExactMatch or DeepCopy; selectors
//     are immutable values here.
//   - Syntax errors are plain errors with Kubernetes' wording, plus the
//     position of the offending token, which Kubernetes does not give.
package labels

// Package resource mirrors k8s.io/apimachinery/pkg/api/resource: Quantity,
// the exact fixed-point number behind every "500m" of CPU and "128Mi" of
// memory in a manifest, and ResourceList, the map of them that requests,
// limits, capacity and allocatable are written as.
//
// Read next: the scheduler's NodeResourcesFit plugin, which sums the
// MilliValue of pod requests against a node's allocatable, and the Kubernetes
// page "Resource Management for Pods and Containers"
// (https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/).
//
// What it promises:
//
//   - ParseQuantity accepts Kubernetes' grammar (DecimalSI suffixes n u m k M
//     G T P E, BinarySI suffixes Ki Mi Gi Ti Pi Ei, exponents like 1e3, signs
//     and fractions) and rejects bad input with Kubernetes' error messages.
//   - Values are exact: an int64 at a power-of-ten scale while they fit, an
//     arbitrary-precision integer when they do not ("10G" + "1n" is
//     10000000000000000001n); finer than 1n rounds up to 1n.
//   - String prints what Kubernetes prints: the text as typed when it was
//     already canonical ("1.500", "8Gi"), else the canonical form in the
//     input's format family ("0.5" is "500m", "1Gi"+"512Mi" is "1536Mi").
//   - MilliValue, Value, Cmp and Add never allocate on int64 values; they are
//     on the scheduler's hot path.
//   - JSON carries a quantity as a string and accepts a JSON number too.
//
// What it simplifies:
//
//   - Value and MilliValue saturate at the int64 limits where Kubernetes
//     returns a wrapped or zero value.
//   - No protobuf form, no ScaledValue/AsDec family.
//   - ResourceList and ResourceName live in k8s.io/api/core/v1 in Kubernetes;
//     they are here so components can add resources without the object types.
package resource

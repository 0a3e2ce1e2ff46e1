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
//   - Values are exact up to 18 significant digits at any power of ten, which
//     covers everything from "1n" to "7Ei"; finer than 1n rounds up to 1n.
//   - String prints the canonical form Kubernetes prints, keeping the format
//     family of the input: "0.5" is "500m", "1Gi"+"512Mi" is "1536Mi".
//   - MilliValue, Value, Cmp and Add never allocate; they are on the
//     scheduler's hot path.
//   - JSON carries a quantity as a string and accepts a JSON number too.
//
// What it simplifies:
//
//   - No arbitrary-precision fallback: a number whose significant digits do
//     not fit an int64 (more than 18) is rejected, and a sum that overflows an int64 at its finest
//     scale drops its last digits (rounding away from zero). Kubernetes
//     switches to an arbitrary-precision decimal instead.
//   - No protobuf form, no cached string, no ScaledValue/AsDec family.
//   - ResourceList and ResourceName live in k8s.io/api/core/v1 in Kubernetes;
//     they are here so components can add resources without the object types.
package resource

// Package api holds kubesim's object types and the machinery around them. It mirrors k8s.io/api (the
// types: core/v1, apps/v1, rbac/v1, coordination/v1, scheduling/v1, policy/v1, autoscaling/v1) and
// the parts of k8s.io/apimachinery that give the types their behaviour: meta/v1 (ObjectMeta,
// LabelSelector, Time), runtime (the Scheme, decoding, deep copies), util/intstr, and the defaulting
// functions of k8s.io/kubernetes/pkg/apis.
//
// Read next: meta.go for what every object carries, then pod.go and apps.go for the kinds the rest of
// kubesim works hardest on, then decode.go and defaults.go for what happens to a manifest before the
// apiserver validates it (package api/validation) and stores it.
//
// Files:
//
//	meta.go            TypeMeta, ObjectMeta, Object, List, OwnerReference, LabelSelector, Time, MicroTime
//	scheme.go          Resource and the registry: names, short names, scope, subresources
//	register.go        every kind kubesim serves, entered in the registry
//	core.go            Namespace, ServiceAccount, ResourceQuota, Binding, ObjectReference, ConditionStatus
//	pod.go             Pod, PodSpec, Container, Probe, Affinity, Toleration, PodStatus
//	node.go            Node, Taint, NodeStatus
//	service.go         Service, Endpoints
//	discovery.go       EndpointSlice (discovery.k8s.io/v1)
//	event.go           Event
//	apps.go            Deployment, ReplicaSet, DaemonSet
//	autoscaling.go     Scale, the body of the scale subresource
//	rbac.go            Role, ClusterRole, RoleBinding, ClusterRoleBinding
//	coordination.go    Lease
//	scheduling.go      PriorityClass
//	policy.go          Eviction, DeleteOptions
//	wellknown.go       well-known labels and taint keys
//	intstr.go          IntOrString and percentage scaling
//	deepcopy.go        DeepCopy
//	specstatus.go      SpecEqual, CopyStatus, HasStatus
//	decode.go          Decode, DecodeInto, Encode, EncodeYAML
//	strict.go          the strict (unknown and duplicate field) check
//	defaults.go        SetDefaults
//	qos.go             QOSClass
//	resourcehelpers.go PodRequests
//
// Sub-packages: resource (Quantity, ResourceList), labels and fields (selectors), field (field paths
// and validation errors), validation, errors (the apiserver's Status errors).
//
// What it promises:
//   - Go names and JSON field names are Kubernetes', so a manifest written for Kubernetes decodes
//     unchanged if it uses only fields kubesim has, and kubectl reads what kubesim writes.
//   - A field kubesim does not have is an error naming its full path, never silently dropped.
//   - Defaults are Kubernetes' defaults, and each one applied is reported.
//   - DeepCopy shares nothing with the original; objects from a cache must be copied before changing.
//
// What it simplifies:
//   - One version per group and no conversion: what is stored is what is served.
//   - Many fields are left out (volumes, init containers, security contexts, most of Service).
//   - Deep copies, spec/status comparison and the strict check are derived by reflection, cached per
//     type, where Kubernetes generates code per type.
package api

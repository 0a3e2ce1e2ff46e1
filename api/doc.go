// Package api holds kubesim's object types and the machinery around them. It mirrors k8s.io/api (the
// types: core/v1, apps/v1, rbac/v1, coordination/v1, scheduling/v1, policy/v1, autoscaling/v1,
// storage/v1) and
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
//	storage.go         PersistentVolume, PersistentVolumeClaim, StorageClass (storage.k8s.io/v1)
//	storage_defaults.go their defaults
//	volumematch.go     FindMatchingVolume, VolumeReachable: which volume can serve a claim
//	policy.go          Eviction, DeleteOptions
//	wellknown.go       well-known labels and taint keys
//	intstr.go          IntOrString and percentage scaling
//	deepcopy.go        DeepCopy, Detach
//	equal.go           Equal: reflect.DeepEqual without its allocations
//	zz_generated.copy.go the code behind DeepCopy, Detach and Equal (go generate ./api: internal/copygen)
//	encode.go          Encode's fast path: the hook to the generated JSON encoders and their helpers
//	zz_generated.json.go the encoders, byte for byte encoding/json's (go generate ./api: internal/jsongen)
//	specstatus.go      SpecEqual, CopyStatus
//	generation.go      TracksGeneration, BumpsGeneration: which kinds keep metadata.generation
//	decode.go          Decode, DecodeWithWarnings, DecodeInto, Encode, EncodeYAML
//	strict.go          the strict (unknown and duplicate field) check
//	unmodelled.go      the fields of Kubernetes' schema kubesim accepts but does not simulate
//	defaults.go        SetDefaults
//	qos.go             QOSClass
//	resourcehelpers.go PodRequests
//
// Sub-packages: resource (Quantity, ResourceList), labels and fields (selectors), field (field paths
// and validation errors), validation, errors (the apiserver's Status errors).
//
// What it promises:
//   - Go names and JSON field names are Kubernetes', so every manifest valid for Kubernetes v1.34
//     decodes, and kubectl reads what kubesim writes.
//   - A field that is not in Kubernetes' schema is an error naming its full path, in the apiserver's
//     words (`strict decoding error: unknown field "spec.replica"`); a field that is, but that kubesim
//     does not simulate, is dropped with a warning naming it (DecodeWithWarnings), never silently.
//   - Defaults are Kubernetes' defaults, and each one applied is reported.
//   - DeepCopy shares nothing with the original; objects from a cache must be copied before changing.
//
// What it simplifies:
//   - One version per group and no conversion: what is stored is what is served.
//   - Many fields are left out (volumes, init containers, security contexts, most of Service); they
//     are listed in unmodelled.go, which difftest keeps complete against k8s.io/api.
//   - Spec/status comparison and the strict check are derived by reflection, cached per type, where
//     Kubernetes generates code per type. Deep copies and equality are generated, as Kubernetes' are
//     (zz_generated.copy.go), with reflection for any type the generated code does not know: a new
//     kind works before it is regenerated, only slower.
package api

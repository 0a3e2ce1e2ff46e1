// core.go: the small kinds of the core ("" group, v1) API and the types they share: Namespace,
// ServiceAccount, ResourceQuota, Binding, ObjectReference and ConditionStatus. Pods, nodes, services,
// endpoints and events, the larger core kinds, each have their own file (pod.go, node.go, service.go,
// event.go). All mirror k8s.io/api/core/v1 with the same Go names and JSON field names.
package api

import "kubesim/api/resource"

// ConditionStatus is the status of every condition: "True", "False" or "Unknown". It is a string, not a
// bool, because "Unknown" is a real answer: a node that stopped heartbeating is neither Ready nor not.
type ConditionStatus string

const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Namespaces every cluster has.
const (
	NamespaceDefault   = "default"
	NamespaceSystem    = "kube-system"
	NamespacePublic    = "kube-public"
	NamespaceNodeLease = "kube-node-lease" // where each kubelet renews its heartbeat Lease
	NamespaceAll       = ""                // in a list or watch: every namespace
)

// ObjectReference points at any object, with optional resourceVersion and fieldPath (an event about a
// container names "spec.containers{nginx}").
type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}

// LocalObjectReference names an object in the same namespace (imagePullSecrets).
type LocalObjectReference struct {
	Name string `json:"name,omitempty"`
}

// Namespace partitions names, policies and quotas. Deleting one sets phase Terminating; the namespace
// controller then deletes everything in it and removes the "kubernetes" finalizer from spec.finalizers
// (through the finalize subresource), and only then does the namespace disappear.
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       NamespaceSpec   `json:"spec,omitempty"`
	Status     NamespaceStatus `json:"status,omitempty"`
}

// FinalizerName is a namespace spec finalizer: not metadata.finalizers, but the list the namespace
// controller empties once the namespace's contents are gone.
type FinalizerName string

// FinalizerKubernetes is the spec finalizer the apiserver puts on every new namespace.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespaceSpec holds the spec finalizers.
type NamespaceSpec struct {
	Finalizers []FinalizerName `json:"finalizers,omitempty"`
}

// NamespacePhase is Active or Terminating.
type NamespacePhase string

const (
	NamespaceActive      NamespacePhase = "Active"
	NamespaceTerminating NamespacePhase = "Terminating"
)

// NamespaceConditionType names what the namespace controller reports while deleting a namespace.
type NamespaceConditionType string

const (
	NamespaceDeletionDiscoveryFailure NamespaceConditionType = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionContentFailure   NamespaceConditionType = "NamespaceDeletionContentFailure"
	NamespaceContentRemaining         NamespaceConditionType = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      NamespaceConditionType = "NamespaceFinalizersRemaining"
)

// NamespaceStatus is the phase and the deletion conditions.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty"`
}

// NamespaceCondition is one observation of the namespace controller.
type NamespaceCondition struct {
	Type               NamespaceConditionType `json:"type"`
	Status             ConditionStatus        `json:"status"`
	LastTransitionTime Time                   `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// ServiceAccount is the identity pods run as ("system:serviceaccount:<namespace>:<name>"). The
// serviceaccount controller creates "default" in every namespace, and admission fills a pod's
// serviceAccountName with it.
type ServiceAccount struct {
	TypeMeta                     `json:",inline"`
	ObjectMeta                   `json:"metadata,omitempty"`
	Secrets                      []ObjectReference      `json:"secrets,omitempty"`
	ImagePullSecrets             []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	AutomountServiceAccountToken *bool                  `json:"automountServiceAccountToken,omitempty"`
}

// ResourceQuota caps the total resources of a namespace. The ResourceQuota admission plugin rejects a
// create that would push status.used over spec.hard ("exceeded quota: ..."), and the quota
// controller recomputes status.used.
type ResourceQuota struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ResourceQuotaSpec   `json:"spec,omitempty"`
	Status     ResourceQuotaStatus `json:"status,omitempty"`
}

// ResourceQuotaSpec is the hard limits: "pods", "requests.cpu", "limits.memory", ...
type ResourceQuotaSpec struct {
	Hard resource.ResourceList `json:"hard,omitempty"`
}

// ResourceQuotaStatus is the enforced limits and the current usage.
type ResourceQuotaStatus struct {
	Hard resource.ResourceList `json:"hard,omitempty"`
	Used resource.ResourceList `json:"used,omitempty"`
}

// Quota resource names beyond the compute ones in package resource.
const (
	ResourceRequestsCPU    resource.ResourceName = "requests.cpu"
	ResourceRequestsMemory resource.ResourceName = "requests.memory"
	ResourceLimitsCPU      resource.ResourceName = "limits.cpu"
	ResourceLimitsMemory   resource.ResourceName = "limits.memory"
	ResourceServices       resource.ResourceName = "services"
)

// Binding is the body of POST pods/<name>/binding: the scheduler's decision, which the apiserver turns
// into spec.nodeName. It is never stored.
type Binding struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Target     ObjectReference `json:"target"`
}

// policy.go: Eviction (policy/v1), the body of POST pods/<name>/eviction, and DeleteOptions
// (metav1), which an eviction carries and a DELETE may send. An eviction is a delete that first asks
// the pod's disruption budgets; kubectl drain evicts rather than deletes.
package api

// Eviction asks the apiserver to delete a pod, gracefully and within disruption budgets.
type Eviction struct {
	TypeMeta      `json:",inline"`
	ObjectMeta    `json:"metadata,omitempty"`
	DeleteOptions *DeleteOptions `json:"deleteOptions,omitempty"`
}

// DeletionPropagation says what the garbage collector does with the dependents of a deleted object.
type DeletionPropagation string

const (
	DeletePropagationOrphan     DeletionPropagation = "Orphan"     // leave dependents, removing their ownerReferences
	DeletePropagationBackground DeletionPropagation = "Background" // delete the owner now, dependents after
	DeletePropagationForeground DeletionPropagation = "Foreground" // delete dependents first
)

// DeleteOptions is metav1.DeleteOptions: an override of the grace period, preconditions that must
// still hold, and the propagation policy.
type DeleteOptions struct {
	TypeMeta           `json:",inline"`
	GracePeriodSeconds *int64               `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions       `json:"preconditions,omitempty"`
	PropagationPolicy  *DeletionPropagation `json:"propagationPolicy,omitempty"`
}

// Preconditions make a delete fail with a Conflict if the object changed or was replaced.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// apps.go: the workload kinds of apps/v1. A Deployment owns ReplicaSets, one per pod template
// revision, and rolls from the old to the new within maxSurge and maxUnavailable; a ReplicaSet keeps
// replicas pods matching its selector; a DaemonSet runs one pod on every eligible node.
package api

// Labels and annotations the workload controllers write.
const (
	// DefaultDeploymentUniqueLabelKey is added to a ReplicaSet's selector and template, with the hash of
	// the pod template, so that the ReplicaSets of one Deployment never select each other's pods.
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
	// RevisionAnnotation numbers a Deployment's ReplicaSets; kubectl rollout history lists them.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
)

// Deployment declares a replicated, rolling-updated set of pods.
type Deployment struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       DeploymentSpec   `json:"spec,omitempty"`
	Status     DeploymentStatus `json:"status,omitempty"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	Replicas                *int32             `json:"replicas,omitempty"`
	Selector                *LabelSelector     `json:"selector"`
	Template                PodTemplateSpec    `json:"template"`
	Strategy                DeploymentStrategy `json:"strategy,omitempty"`
	MinReadySeconds         int32              `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32             `json:"revisionHistoryLimit,omitempty"`
	Paused                  bool               `json:"paused,omitempty"`
	ProgressDeadlineSeconds *int32             `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategyType is how old pods are replaced.
type DeploymentStrategyType string

const (
	RecreateDeploymentStrategyType      DeploymentStrategyType = "Recreate"      // all old pods go, then new ones come
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate" // a few at a time
)

// DeploymentStrategy is the strategy and its rolling update parameters.
type DeploymentStrategy struct {
	Type          DeploymentStrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rollout: at most maxSurge pods above the desired count, at most
// maxUnavailable below it. Each is a number or a percentage of spec.replicas (see ScaledValue).
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is what the deployment controller observed.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty"`
	CollisionCount      *int32                `json:"collisionCount,omitempty"`
}

// DeploymentConditionType names a Deployment condition.
type DeploymentConditionType string

const (
	DeploymentAvailable      DeploymentConditionType = "Available"      // at least replicas-maxUnavailable pods available
	DeploymentProgressing    DeploymentConditionType = "Progressing"    // the rollout is moving, or finished
	DeploymentReplicaFailure DeploymentConditionType = "ReplicaFailure" // a pod could not be created
)

// DeploymentCondition is one observation about a Deployment.
type DeploymentCondition struct {
	Type               DeploymentConditionType `json:"type"`
	Status             ConditionStatus         `json:"status"`
	LastUpdateTime     Time                    `json:"lastUpdateTime,omitempty"`
	LastTransitionTime Time                    `json:"lastTransitionTime,omitempty"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// GetDeploymentCondition returns the status' condition of type t, or nil if it has none (Kubernetes'
// deploymentutil.GetDeploymentCondition).
func GetDeploymentCondition(status DeploymentStatus, t DeploymentConditionType) *DeploymentCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// ReplicaSet keeps a number of identical pods running.
type ReplicaSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ReplicaSetSpec   `json:"spec,omitempty"`
	Status     ReplicaSetStatus `json:"status,omitempty"`
}

// ReplicaSetSpec is the desired state of a ReplicaSet.
type ReplicaSetSpec struct {
	Replicas        *int32          `json:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector"`
	Template        PodTemplateSpec `json:"template,omitempty"`
}

// ReplicaSetStatus is what the replicaset controller observed.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSetConditionType names a ReplicaSet condition.
type ReplicaSetConditionType string

// ReplicaSetReplicaFailure is set when a pod could not be created (for example, quota exceeded).
const ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"

// ReplicaSetCondition is one observation about a ReplicaSet.
type ReplicaSetCondition struct {
	Type               ReplicaSetConditionType `json:"type"`
	Status             ConditionStatus         `json:"status"`
	LastTransitionTime Time                    `json:"lastTransitionTime,omitempty"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// DaemonSet runs a copy of a pod on every node its template can schedule onto.
type DaemonSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       DaemonSetSpec   `json:"spec,omitempty"`
	Status     DaemonSetStatus `json:"status,omitempty"`
}

// DaemonSetSpec is the desired state of a DaemonSet.
type DaemonSetSpec struct {
	Selector             *LabelSelector          `json:"selector"`
	Template             PodTemplateSpec         `json:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy,omitempty"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategyType is how a DaemonSet replaces pods on template change.
type DaemonSetUpdateStrategyType string

const (
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      DaemonSetUpdateStrategyType = "OnDelete" // only when a pod is deleted by hand
)

// DaemonSetUpdateStrategy is the strategy and its rolling update parameters.
type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet     `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet bounds a DaemonSet rollout, as a number or a percentage of the nodes.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus is what the daemonset controller observed.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32 `json:"currentNumberScheduled"`
	NumberMisscheduled     int32 `json:"numberMisscheduled"`
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled"`
	NumberReady            int32 `json:"numberReady"`
	ObservedGeneration     int64 `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32 `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32 `json:"numberUnavailable,omitempty"`
}

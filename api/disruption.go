// disruption.go: PodDisruptionBudget (policy/v1), how many pods of a set may be down at once for a
// voluntary disruption (a drain, an eviction). spec says it (minAvailable or maxUnavailable, over the
// pods its selector picks); status, kept by the disruption controller, says how many may go now
// (disruptionsAllowed), and the Eviction API refuses with 429 when that is 0.
package api

// PodDisruptionBudget limits voluntary disruptions of the pods its selector picks.
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodDisruptionBudgetSpec   `json:"spec,omitempty"`
	Status     PodDisruptionBudgetStatus `json:"status,omitempty"`
}

// PodDisruptionBudgetSpec sets one of minAvailable and maxUnavailable, a count or a percentage.
type PodDisruptionBudgetSpec struct {
	MinAvailable   *IntOrString   `json:"minAvailable,omitempty"`
	Selector       *LabelSelector `json:"selector,omitempty"`
	MaxUnavailable *IntOrString   `json:"maxUnavailable,omitempty"`
}

// PodDisruptionBudgetStatus is the disruption controller's count. disruptedPods holds the pods the
// Eviction API has let go but the controller has not yet seen go (name -> time of the eviction).
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty"`
}

// The DisruptionAllowed condition and its reasons.
const (
	DisruptionAllowedCondition = "DisruptionAllowed"
	SufficientPodsReason       = "SufficientPods"   // disruptionsAllowed > 0
	InsufficientPodsReason     = "InsufficientPods" // disruptionsAllowed == 0
)

// Condition is metav1.Condition, the condition shape of newer kinds.
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	LastTransitionTime Time            `json:"lastTransitionTime"`
	Reason             string          `json:"reason"`
	Message            string          `json:"message"`
}

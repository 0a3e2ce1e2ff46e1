// autoscaling.go: Scale (autoscaling/v1), the body of the scale subresource of Deployments and
// ReplicaSets. "kubectl scale" and autoscalers read and write replicas through it without knowing the
// workload's kind.
package api

// Scale is a workload's replica count seen through its scale subresource.
type Scale struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ScaleSpec   `json:"spec,omitempty"`
	Status     ScaleStatus `json:"status,omitempty"`
}

// ScaleSpec is the desired replica count.
type ScaleSpec struct {
	Replicas int32 `json:"replicas,omitempty"`
}

// ScaleStatus is the observed replica count and the workload's selector as a string ("app=nginx").
type ScaleStatus struct {
	Replicas int32  `json:"replicas"`
	Selector string `json:"selector,omitempty"`
}

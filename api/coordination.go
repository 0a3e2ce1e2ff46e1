// coordination.go: Lease (coordination.k8s.io/v1), a small object renewed often. Kubelets renew one in
// kube-node-lease as their heartbeat; controller managers and schedulers take turns holding one for
// leader election. Whoever renewed it last within leaseDurationSeconds holds it.
package api

// Lease is a named, renewable claim.
type Lease struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       LeaseSpec `json:"spec,omitempty"`
}

// LeaseSpec records who holds the lease, since when, and when it was last renewed.
type LeaseSpec struct {
	HolderIdentity       *string    `json:"holderIdentity,omitempty"`
	LeaseDurationSeconds *int32     `json:"leaseDurationSeconds,omitempty"`
	AcquireTime          *MicroTime `json:"acquireTime,omitempty"`
	RenewTime            *MicroTime `json:"renewTime,omitempty"`
	LeaseTransitions     *int32     `json:"leaseTransitions,omitempty"`
}

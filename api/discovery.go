// discovery.go: EndpointSlice (discovery.k8s.io/v1), the scalable successor of Endpoints. The
// EndpointSlice controller writes one or more slices per Service, labelled
// kubernetes.io/service-name=<service>; kube-proxy and CoreDNS read slices, not Endpoints. Each
// endpoint carries three conditions: ready (serving and not terminating: what a Service sends new
// traffic to), serving (the readiness probe passes, even while the pod terminates) and terminating
// (the pod has a deletionTimestamp).
package api

// DiscoveryGroupName is the EndpointSlice API group.
const DiscoveryGroupName = "discovery.k8s.io"

// Labels of an EndpointSlice, as the EndpointSlice controller sets them.
const (
	LabelServiceName = "kubernetes.io/service-name"
	LabelManagedBy   = "endpointslice.kubernetes.io/managed-by"
)

// AddressType is the kind of addresses a slice holds; kubesim only builds IPv4 slices.
type AddressType string

// AddressTypeIPv4 is the only address type kubesim's pods have.
const AddressTypeIPv4 AddressType = "IPv4"

// EndpointSlice is a set of endpoints of one Service, all serving the same ports.
type EndpointSlice struct {
	TypeMeta    `json:",inline"`
	ObjectMeta  `json:"metadata,omitempty"`
	AddressType AddressType         `json:"addressType"`
	Endpoints   []Endpoint          `json:"endpoints"`
	Ports       []EndpointSlicePort `json:"ports"`
}

// Endpoint is one backend: a pod's addresses, its conditions and where it runs.
type Endpoint struct {
	Addresses  []string           `json:"addresses"`
	Conditions EndpointConditions `json:"conditions,omitempty"`
	Hostname   *string            `json:"hostname,omitempty"`
	TargetRef  *ObjectReference   `json:"targetRef,omitempty"`
	NodeName   *string            `json:"nodeName,omitempty"`
	Zone       *string            `json:"zone,omitempty"`
}

// EndpointConditions are an endpoint's state. A nil condition means unknown; consumers treat a nil
// ready as ready.
type EndpointConditions struct {
	Ready       *bool `json:"ready,omitempty"`
	Serving     *bool `json:"serving,omitempty"`
	Terminating *bool `json:"terminating,omitempty"`
}

// EndpointSlicePort is a resolved target port (discovery/v1 EndpointPort; renamed here because core's
// EndpointPort is the Endpoints one). Every field is a pointer, as in Kubernetes.
type EndpointSlicePort struct {
	Name     *string   `json:"name,omitempty"`
	Protocol *Protocol `json:"protocol,omitempty"`
	Port     *int32    `json:"port,omitempty"`
}

// service.go: Service and Endpoints (core/v1). A Service gives a stable virtual IP and name to the
// pods its selector matches; the endpoints controller keeps an Endpoints object of the same name
// listing those pods' IPs, ready ones in addresses and the rest in notReadyAddresses. kubesim
// allocates cluster IPs and node ports but routes no traffic.
package api

// Service is a stable address for a set of pods.
type Service struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ServiceSpec   `json:"spec,omitempty"`
	Status     ServiceStatus `json:"status,omitempty"`
}

// ServiceType is how a service is exposed.
type ServiceType string

const (
	ServiceTypeClusterIP    ServiceType = "ClusterIP"    // a virtual IP inside the cluster
	ServiceTypeNodePort     ServiceType = "NodePort"     // plus a port (30000-32767) on every node
	ServiceTypeLoadBalancer ServiceType = "LoadBalancer" // plus a cloud load balancer (not simulated)
	ServiceTypeExternalName ServiceType = "ExternalName" // a DNS alias (not simulated)
)

// ClusterIPNone is the clusterIP of a headless service.
const ClusterIPNone = "None"

// LabelIsHeadlessService marks the Endpoints and EndpointSlices of a Service without a cluster IP.
const LabelIsHeadlessService = "service.kubernetes.io/headless"

// IsServiceIPSet reports whether svc has a cluster IP: not headless, and already allocated.
func IsServiceIPSet(svc *Service) bool {
	return svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != ClusterIPNone
}

// ServiceSpec selects the pods and lists the ports.
type ServiceSpec struct {
	Type       ServiceType       `json:"type,omitempty"`
	Selector   map[string]string `json:"selector,omitempty"`
	ClusterIP  string            `json:"clusterIP,omitempty"`
	ClusterIPs []string          `json:"clusterIPs,omitempty"`
	Ports      []ServicePort     `json:"ports,omitempty"`
	// SessionAffinity is None (each connection picks an endpoint) or ClientIP (kube-proxy's "recent"
	// match sends a client back to the same one).
	SessionAffinity ServiceAffinity `json:"sessionAffinity,omitempty"`
	// SessionAffinityConfig holds how long ClientIP affinity lasts (clientIP.timeoutSeconds, default
	// 10800, three hours); it is set only with ClientIP.
	SessionAffinityConfig *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty"`
	// IPFamilies and IPFamilyPolicy say which address families the cluster IPs come from: kubesim's
	// cluster is IPv4 only, so [IPv4] and SingleStack, set when the cluster IP is allocated.
	IPFamilies     []IPFamily      `json:"ipFamilies,omitempty"`
	IPFamilyPolicy *IPFamilyPolicy `json:"ipFamilyPolicy,omitempty"`
	// InternalTrafficPolicy (Cluster or Local) says whether traffic from inside the cluster may go to
	// any node's endpoints; ExternalTrafficPolicy the same for node ports and load balancers.
	InternalTrafficPolicy *ServiceTrafficPolicy `json:"internalTrafficPolicy,omitempty"`
	ExternalTrafficPolicy ServiceTrafficPolicy  `json:"externalTrafficPolicy,omitempty"`
}

// ServiceAffinity is a Service's session affinity.
type ServiceAffinity string

// The session affinities.
const (
	ServiceAffinityNone     ServiceAffinity = "None"
	ServiceAffinityClientIP ServiceAffinity = "ClientIP"
)

// DefaultClientIPServiceAffinitySeconds and MaxClientIPServiceAffinitySeconds bound ClientIP
// affinity: three hours by default, a day at most.
const (
	DefaultClientIPServiceAffinitySeconds int32 = 10800
	MaxClientIPServiceAffinitySeconds     int32 = 86400
)

// SessionAffinityConfig is the configuration of a Service's session affinity.
type SessionAffinityConfig struct {
	ClientIP *ClientIPConfig `json:"clientIP,omitempty"`
}

// ClientIPConfig says how long a client sticks to the endpoint it was first sent to.
type ClientIPConfig struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
}

// IPFamily is an address family of a cluster IP.
type IPFamily string

// IPv4Protocol is the only family kubesim allocates from.
const IPv4Protocol IPFamily = "IPv4"

// IPFamilyPolicy says how many families a Service wants.
type IPFamilyPolicy string

// IPFamilyPolicySingleStack is one family.
const IPFamilyPolicySingleStack IPFamilyPolicy = "SingleStack"

// ServiceTrafficPolicy is a Service's internal or external traffic policy.
type ServiceTrafficPolicy string

// The traffic policies.
const (
	ServiceTrafficPolicyCluster ServiceTrafficPolicy = "Cluster"
	ServiceTrafficPolicyLocal   ServiceTrafficPolicy = "Local"
)

// ServicePort maps the service's port to targetPort on the pods, a number or a container port name.
type ServicePort struct {
	Name       string      `json:"name,omitempty"`
	Protocol   Protocol    `json:"protocol,omitempty"`
	Port       int32       `json:"port"`
	TargetPort IntOrString `json:"targetPort,omitempty"`
	NodePort   int32       `json:"nodePort,omitempty"`
}

// ServiceStatus is the load balancer status (empty in kubesim).
type ServiceStatus struct {
	LoadBalancer LoadBalancerStatus `json:"loadBalancer,omitempty"`
}

// LoadBalancerStatus lists a load balancer's ingress points.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty"`
}

// LoadBalancerIngress is one ingress point.
type LoadBalancerIngress struct {
	IP       string `json:"ip,omitempty"`
	Hostname string `json:"hostname,omitempty"`
}

// Endpoints lists the addresses behind the service of the same name.
type Endpoints struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Subsets    []EndpointSubset `json:"subsets,omitempty"`
}

// EndpointSubset is a set of addresses that all serve the same ports.
type EndpointSubset struct {
	Addresses         []EndpointAddress `json:"addresses,omitempty"`
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty"`
	Ports             []EndpointPort    `json:"ports,omitempty"`
}

// EndpointAddress is one pod's IP, with the node it runs on and a reference to the pod.
type EndpointAddress struct {
	IP        string           `json:"ip"`
	Hostname  string           `json:"hostname,omitempty"`
	NodeName  *string          `json:"nodeName,omitempty"`
	TargetRef *ObjectReference `json:"targetRef,omitempty"`
}

// EndpointPort is a resolved target port.
type EndpointPort struct {
	Name     string   `json:"name,omitempty"`
	Port     int32    `json:"port"`
	Protocol Protocol `json:"protocol,omitempty"`
}

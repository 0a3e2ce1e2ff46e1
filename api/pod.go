// pod.go: Pod (core/v1), the unit the scheduler places and a kubelet runs: PodSpec with its containers,
// probes, scheduling constraints (nodeSelector, affinity, tolerations, topology spread) and PodStatus
// with its phase, conditions and container states. Field names are Kubernetes'; the fields kubesim does
// not simulate (ephemeral containers, security contexts, ...) load and are named in a warning
// (unmodelled.go). Volumes are in volume.go, env sources in config.go.
package api

import "kubesim/api/resource"

// Pod is a group of containers that share a node, a network namespace and a lifecycle.
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec   `json:"spec,omitempty"`
	Status     PodStatus `json:"status,omitempty"`
}

// PodTemplateSpec is the pod a workload controller stamps out: Deployment, ReplicaSet, DaemonSet.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec `json:"spec,omitempty"`
}

// PodSpec is the desired state of a pod. nodeName is empty until the scheduler binds the pod.
type PodSpec struct {
	InitContainers                []Container       `json:"initContainers,omitempty"`
	Containers                    []Container       `json:"containers"`
	RestartPolicy                 RestartPolicy     `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty"`
	DNSPolicy                     DNSPolicy         `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty"`
	ServiceAccountName            string            `json:"serviceAccountName,omitempty"`
	// AutomountServiceAccountToken: false keeps the ServiceAccount admission plugin from mounting
	// the kube-api-access volume (token, ca.crt, namespace) into the pod's containers; nil defers
	// to the ServiceAccount's own field, then to true.
	AutomountServiceAccountToken *bool  `json:"automountServiceAccountToken,omitempty"`
	NodeName                     string `json:"nodeName,omitempty"`
	HostNetwork                  bool   `json:"hostNetwork,omitempty"`
	// Hostname is the pod's hostname (default: its name, cut to 63 characters). With Subdomain, the
	// name of a headless Service in the pod's namespace, the pod also gets the DNS name
	// <hostname>.<subdomain>.<namespace>.svc.cluster.local, as a StatefulSet's pods do.
	Hostname  string `json:"hostname,omitempty"`
	Subdomain string `json:"subdomain,omitempty"`
	// EnableServiceLinks: whether the kubelet gives the containers the variables of the Services
	// of the pod's namespace ({NAME}_SERVICE_HOST, ...). Those of the Service "kubernetes" in
	// default come in any case. nil reads as true, Kubernetes' default.
	EnableServiceLinks        *bool                      `json:"enableServiceLinks,omitempty"`
	ImagePullSecrets          []LocalObjectReference     `json:"imagePullSecrets,omitempty"`
	Affinity                  *Affinity                  `json:"affinity,omitempty"`
	SchedulerName             string                     `json:"schedulerName,omitempty"`
	Tolerations               []Toleration               `json:"tolerations,omitempty"`
	PriorityClassName         string                     `json:"priorityClassName,omitempty"`
	Priority                  *int32                     `json:"priority,omitempty"`
	PreemptionPolicy          *PreemptionPolicy          `json:"preemptionPolicy,omitempty"`
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	Volumes                   []Volume                   `json:"volumes,omitempty"`
}

// RestartPolicy says what the kubelet does when a container exits.
type RestartPolicy string

const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// DNSPolicy says which resolver a pod uses; kubesim records it but simulates no DNS.
type DNSPolicy string

const (
	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	DNSClusterFirst            DNSPolicy = "ClusterFirst"
	DNSDefault                 DNSPolicy = "Default"
	DNSNone                    DNSPolicy = "None"
)

// DefaultSchedulerName is the profile that schedules a pod with no schedulerName.
const DefaultSchedulerName = "default-scheduler"

// Container is one container of a pod.
type Container struct {
	Name            string               `json:"name"`
	Image           string               `json:"image,omitempty"`
	Command         []string             `json:"command,omitempty"`
	Args            []string             `json:"args,omitempty"`
	Ports           []ContainerPort      `json:"ports,omitempty"`
	EnvFrom         []EnvFromSource      `json:"envFrom,omitempty"`
	Env             []EnvVar             `json:"env,omitempty"`
	Resources       ResourceRequirements `json:"resources,omitempty"`
	LivenessProbe   *Probe               `json:"livenessProbe,omitempty"`
	ReadinessProbe  *Probe               `json:"readinessProbe,omitempty"`
	StartupProbe    *Probe               `json:"startupProbe,omitempty"`
	ImagePullPolicy PullPolicy           `json:"imagePullPolicy,omitempty"`
	VolumeMounts    []VolumeMount        `json:"volumeMounts,omitempty"`
}

// PullPolicy is a container's imagePullPolicy.
type PullPolicy string

const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// Protocol is a port's protocol.
type Protocol string

const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// ContainerPort is a port a container listens on. A hostPort also claims the port on the node, which
// the scheduler's NodePorts filter checks.
type ContainerPort struct {
	Name          string   `json:"name,omitempty"`
	HostPort      int32    `json:"hostPort,omitempty"`
	ContainerPort int32    `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
	HostIP        string   `json:"hostIP,omitempty"`
}

// EnvVar is one environment variable: a value, or where to find it (valueFrom, config.go).
type EnvVar struct {
	Name      string        `json:"name"`
	Value     string        `json:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty"`
}

// ResourceRequirements are what the scheduler reserves (requests) and the kubelet enforces (limits).
type ResourceRequirements struct {
	Limits   resource.ResourceList `json:"limits,omitempty"`
	Requests resource.ResourceList `json:"requests,omitempty"`
}

// Probe is a liveness, readiness or startup check the kubelet runs every periodSeconds. One of the
// ProbeHandler actions is set; failureThreshold consecutive failures make it fail.
type Probe struct {
	ProbeHandler        `json:",inline"`
	InitialDelaySeconds int32 `json:"initialDelaySeconds,omitempty"`
	TimeoutSeconds      int32 `json:"timeoutSeconds,omitempty"`
	PeriodSeconds       int32 `json:"periodSeconds,omitempty"`
	SuccessThreshold    int32 `json:"successThreshold,omitempty"`
	FailureThreshold    int32 `json:"failureThreshold,omitempty"`
}

// ProbeHandler is the action a probe takes; its fields sit inline in the probe's JSON.
type ProbeHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
}

// ExecAction runs a command in the container; exit status 0 is success.
type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

// URIScheme is HTTP or HTTPS.
type URIScheme string

const (
	URISchemeHTTP  URIScheme = "HTTP"
	URISchemeHTTPS URIScheme = "HTTPS"
)

// HTTPGetAction is a GET on the pod's IP; a status from 200 to 399 is success.
type HTTPGetAction struct {
	Path string      `json:"path,omitempty"`
	Port IntOrString `json:"port"`
	// Host is the host to connect to, the pod's IP when empty: kubeadm's static pods probe their
	// component at the node's address or 127.0.0.1. kubesim's kubelet names it in what it reports,
	// and the fake runtime answers for the container whatever it says (it has no network to send the
	// probe elsewhere).
	Host   string    `json:"host,omitempty"`
	Scheme URIScheme `json:"scheme,omitempty"`
}

// TCPSocketAction succeeds if the port accepts a connection.
type TCPSocketAction struct {
	Port IntOrString `json:"port"`
	Host string      `json:"host,omitempty"` // the pod's IP when empty; see HTTPGetAction.Host
}

// Affinity groups the three kinds of scheduling affinity.
type Affinity struct {
	NodeAffinity    *NodeAffinity    `json:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity     `json:"podAffinity,omitempty"`
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty"`
}

// NodeAffinity is a hard requirement (a filter) and soft preferences (scores) on node labels.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector matches a node if any of its terms matches (terms are ORed).
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm matches a node if all of its requirements match (requirements are ANDed).
// matchFields can only name metadata.name.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorRequirement is "key operator values".
type NodeSelectorRequirement struct {
	Key      string               `json:"key"`
	Operator NodeSelectorOperator `json:"operator"`
	Values   []string             `json:"values,omitempty"`
}

// NodeSelectorOperator adds the numeric Gt and Lt to the label selector operators.
type NodeSelectorOperator string

const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// PreferredSchedulingTerm adds weight (1-100) to a node's score if the term matches.
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight"`
	Preference NodeSelectorTerm `json:"preference"`
}

// PodAffinity attracts a pod to the topology domains (nodes, zones) where matching pods run.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAntiAffinity repels a pod from the topology domains where matching pods run.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm selects pods (in the given namespaces, or the pod's own) and a topology key whose
// value defines a domain: "kubernetes.io/hostname" means same node, "topology.kubernetes.io/zone" same zone.
type PodAffinityTerm struct {
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	Namespaces    []string       `json:"namespaces,omitempty"`
	TopologyKey   string         `json:"topologyKey"`
}

// WeightedPodAffinityTerm is a soft pod (anti-)affinity term with weight 1-100.
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}

// TolerationOperator is Equal (key and value match) or Exists (key matches, any value).
type TolerationOperator string

const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
)

// Toleration lets a pod schedule onto (and, for NoExecute, stay on) a node with a matching taint.
// An empty key with operator Exists tolerates every taint. tolerationSeconds bounds how long a pod stays
// bound to a node after a NoExecute taint appears (the 300s not-ready/unreachable tolerations).
type Toleration struct {
	Key               string             `json:"key,omitempty"`
	Operator          TolerationOperator `json:"operator,omitempty"`
	Value             string             `json:"value,omitempty"`
	Effect            TaintEffect        `json:"effect,omitempty"`
	TolerationSeconds *int64             `json:"tolerationSeconds,omitempty"`
}

// ToleratesTaint reports whether t tolerates taint, as Kubernetes matches them: the effect matches
// (an empty effect matches all), the key matches (an empty key matches all), and for Equal, or an
// empty operator, the values are equal. Validation only allows an empty key with Exists.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

// TolerationsTolerateTaint reports whether one of tolerations tolerates taint
// (k8s.io/component-helpers/scheduling/corev1 TolerationsTolerateTaint).
func TolerationsTolerateTaint(tolerations []Toleration, taint *Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// UnsatisfiableConstraintAction is what a topology spread constraint does when it cannot be met.
type UnsatisfiableConstraintAction string

const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"  // a filter
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway" // a score
)

// TopologySpreadConstraint keeps the number of matching pods in each topology domain within maxSkew of
// the least-populated domain.
type TopologySpreadConstraint struct {
	MaxSkew           int32                         `json:"maxSkew"`
	TopologyKey       string                        `json:"topologyKey"`
	WhenUnsatisfiable UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
	LabelSelector     *LabelSelector                `json:"labelSelector,omitempty"`
	MinDomains        *int32                        `json:"minDomains,omitempty"`
}

// PodStatus is what the kubelet (and, for PodScheduled and nominatedNodeName, the scheduler) observed.
type PodStatus struct {
	Phase                 PodPhase          `json:"phase,omitempty"`
	Conditions            []PodCondition    `json:"conditions,omitempty"`
	Message               string            `json:"message,omitempty"`
	Reason                string            `json:"reason,omitempty"`
	NominatedNodeName     string            `json:"nominatedNodeName,omitempty"`
	HostIP                string            `json:"hostIP,omitempty"`
	PodIP                 string            `json:"podIP,omitempty"`
	PodIPs                []PodIP           `json:"podIPs,omitempty"`
	StartTime             *Time             `json:"startTime,omitempty"`
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
	ContainerStatuses     []ContainerStatus `json:"containerStatuses,omitempty"`
	QOSClass              PodQOSClass       `json:"qosClass,omitempty"`
}

// PodIP is one of a pod's addresses.
type PodIP struct {
	IP string `json:"ip"`
}

// PodPhase is the coarse summary of a pod's lifecycle.
type PodPhase string

const (
	PodPending   PodPhase = "Pending"   // accepted, but not all containers are running (includes unscheduled)
	PodRunning   PodPhase = "Running"   // bound, and at least one container is running or restarting
	PodSucceeded PodPhase = "Succeeded" // all containers exited 0 and will not restart
	PodFailed    PodPhase = "Failed"    // all containers exited, at least one in failure
	PodUnknown   PodPhase = "Unknown"   // the node cannot be reached
)

// PodConditionType names a pod condition.
type PodConditionType string

const (
	PodScheduled    PodConditionType = "PodScheduled"
	PodInitialized  PodConditionType = "Initialized"
	ContainersReady PodConditionType = "ContainersReady"
	PodReady        PodConditionType = "Ready"
)

// Reasons the scheduler and the kubelet put on pod conditions and status.
const (
	PodReasonUnschedulable = "Unschedulable" // PodScheduled=False: no node fits
	PodReasonEvicted       = "Evicted"       // status.reason of a pod the kubelet evicted under pressure
)

// PodCondition is one observation about a pod.
type PodCondition struct {
	Type               PodConditionType `json:"type"`
	Status             ConditionStatus  `json:"status"`
	LastProbeTime      Time             `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time             `json:"lastTransitionTime,omitempty"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// PodQOSClass decides which pods the kubelet evicts first under memory pressure (see qos.go).
type PodQOSClass string

const (
	PodQOSGuaranteed PodQOSClass = "Guaranteed"
	PodQOSBurstable  PodQOSClass = "Burstable"
	PodQOSBestEffort PodQOSClass = "BestEffort"
)

// ContainerStatus is what the kubelet observed about one container. lastState holds the previous
// termination, which is how "kubectl describe" shows why a container restarted.
type ContainerStatus struct {
	Name                 string         `json:"name"`
	State                ContainerState `json:"state,omitempty"`
	LastTerminationState ContainerState `json:"lastState,omitempty"`
	Ready                bool           `json:"ready"`
	RestartCount         int32          `json:"restartCount"`
	Image                string         `json:"image"`
	ImageID              string         `json:"imageID"`
	ContainerID          string         `json:"containerID,omitempty"`
	Started              *bool          `json:"started,omitempty"`
}

// ContainerState has exactly one of its members set; none set means Waiting.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting carries the reason kubectl shows in STATUS: ContainerCreating, ErrImagePull,
// ImagePullBackOff, CrashLoopBackOff.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated is an exited container: reason Completed, Error or OOMKilled.
type ContainerStateTerminated struct {
	ExitCode    int32  `json:"exitCode"`
	Signal      int32  `json:"signal,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Message     string `json:"message,omitempty"`
	StartedAt   Time   `json:"startedAt,omitempty"`
	FinishedAt  Time   `json:"finishedAt,omitempty"`
	ContainerID string `json:"containerID,omitempty"`
}

// cri.go: the Container Runtime Interface, the contract between the kubelet and a container runtime.
//
//	RuntimeService   sandboxes (RunPodSandbox ... ListPodSandbox), containers (CreateContainer ...
//	                 ContainerStatus), probes, logs, stats, Version and Status
//	ImageService     ListImages, ImageStatus, PullImage, RemoveImage, ImageFsInfo
//
// In Kubernetes these are two gRPC services defined in k8s.io/cri-api/pkg/apis/runtime/v1/api.proto; the
// kubelet dials containerd's (or CRI-O's) unix socket and calls them. kubesim keeps the method names and
// the shape of the messages, replaces protobuf with plain Go structs, and calls a Go value in-process.
// Every method takes a context because every real call is an RPC that can hang (see faults.go).

package fakeruntime

import (
	"context"
	"time"
)

// RuntimeService manages pod sandboxes and containers. The kubelet is its only caller, and the runtime
// never calls back: the kubelet learns what changed by listing (the PLEG's relist) and asking for
// statuses. All timestamps are cluster time from the runtime's clock; a zero time.Time means "not yet".
//
// Never modify what the runtime returns. Over gRPC every answer is a fresh copy decoded from
// protobuf; in-process, the Labels and Annotations maps of a Container, PodSandbox, status or stats
// entry, and a container status's Resources, are the runtime's own, shared by every answer about
// that container or sandbox (they never change after creation). Copying them for each answer would cost more than everything else a relist
// does: every kubelet lists every sandbox and container each second. Read them; to change one,
// clone it. The same holds the other way for RunPodSandbox and CreateContainer: the runtime keeps
// the slices and maps of the config it is given (labels, annotations, port mappings; a container's
// command, args and environment) as that sandbox's or container's for its whole life, so the caller
// must not change them after the call (the kubelet builds a new config for each). A kubelet keeps
// thousands of containers; a second copy of each one's labels, annotations and environment was a
// sixth of the fake runtime's memory.
//
// In the same way, ListPodSandbox and ListContainers hand out the same entry (the same pointer) for
// a sandbox or container whose state has not changed since it was last listed, and a new entry when
// it has: an entry never changes once handed out. An unfiltered list may even hand out the same
// slice as the previous unfiltered list, while nothing in it changed (index.go): never modify the
// slice either. The PLEG's relist relies on it to skip, by
// identity, what did not change. Lists are in creation order, so the entries created since the last
// list come last.
type RuntimeService interface {
	// Version reports the runtime's name and versions (kubectl get nodes -o wide shows
	// containerd://<RuntimeVersion>).
	Version(ctx context.Context) (*VersionResponse, error)
	// Status reports the RuntimeReady and NetworkReady conditions the kubelet folds into the node's
	// Ready condition.
	Status(ctx context.Context) (*RuntimeStatus, error)
	// UpdateRuntimeConfig passes the node's podCIDR to the runtime, whose CNI plugin allocates pod
	// IPs in it; until then NetworkReady is false and sandboxes fail.
	UpdateRuntimeConfig(ctx context.Context, cfg *RuntimeConfig) error

	// RunPodSandbox creates and starts the pod's sandbox (the pause container holding the network
	// namespace), allocates the pod IP from the node's podCIDR, and returns the sandbox ID.
	RunPodSandbox(ctx context.Context, config *PodSandboxConfig) (string, error)
	// StopPodSandbox stops the sandbox and kills any of its containers still running; the sandbox
	// becomes SANDBOX_NOTREADY. Stopping a stopped sandbox succeeds. The IP is kept until removal.
	StopPodSandbox(ctx context.Context, podSandboxID string) error
	// RemovePodSandbox removes a sandbox and all its containers and releases its IP. Removing a sandbox
	// that does not exist succeeds, as in CRI (the call must be idempotent).
	RemovePodSandbox(ctx context.Context, podSandboxID string) error
	// PodSandboxStatus returns the sandbox's state and IP, or a NotFound error.
	PodSandboxStatus(ctx context.Context, podSandboxID string) (*PodSandboxStatus, error)
	// ListPodSandbox returns the sandboxes matching filter (nil: all), in creation order.
	ListPodSandbox(ctx context.Context, filter *PodSandboxFilter) ([]*PodSandbox, error)

	// CreateContainer creates a container in a sandbox from a pulled image; it is CONTAINER_CREATED
	// until StartContainer. The image must be present (the kubelet pulls first), else NotFound.
	CreateContainer(ctx context.Context, podSandboxID string, config *ContainerConfig, sandboxConfig *PodSandboxConfig) (string, error)
	// StartContainer starts a created container; from then on its behaviour (see doc.go) decides when
	// it exits, with what code and reason.
	StartContainer(ctx context.Context, containerID string) error
	// StopContainer sends SIGTERM and, if the process is still alive after timeout, SIGKILL. It returns
	// when the container has exited, so it takes up to timeout of cluster time. CRI carries the timeout
	// in whole seconds; kubesim takes a Duration. Stopping an exited container succeeds.
	StopContainer(ctx context.Context, containerID string, timeout time.Duration) error
	// RemoveContainer removes a container (killing it first if it runs). Removing a missing container
	// succeeds.
	RemoveContainer(ctx context.Context, containerID string) error
	// ListContainers returns the containers matching filter (nil: all), in creation order.
	ListContainers(ctx context.Context, filter *ContainerFilter) ([]*Container, error)
	// ContainerStatus returns the container's state as of the clock's now, or a NotFound error.
	ContainerStatus(ctx context.Context, containerID string) (*ContainerStatus, error)

	// ProbeContainer runs one probe against a container and reports the result. It stands for both
	// ways the kubelet probes: ExecSync (exec probes go through CRI) and the HTTP GET / TCP connection
	// the kubelet's prober opens to the pod IP itself (those do not go through CRI in Kubernetes). A
	// probe of a container that is not running fails; the error is for the runtime's own faults only.
	ProbeContainer(ctx context.Context, containerID string, probe *Probe) (ProbeResult, error)
	// ContainerLogs returns the last tail lines the container wrote (tail < 0: all that are kept), the
	// way kubectl logs reads the CRI log file under the pod's log directory.
	ContainerLogs(ctx context.Context, containerID string, tail int) ([]LogLine, error)
	// Stats reports per-container memory and the node totals the eviction manager compares with its
	// thresholds. In Kubernetes the kubelet's stats provider assembles this summary from
	// ListPodSandboxStats/ListContainerStats and ImageFsInfo (or cAdvisor); kubesim returns it whole.
	Stats(ctx context.Context) (*NodeStats, error)
}

// ImageService manages the node's image store.
type ImageService interface {
	// ListImages returns every image on the node, sorted by ID.
	ListImages(ctx context.Context) ([]*Image, error)
	// ImageStatus returns the image, or (nil, nil) when it is not present: as in CRI, absence is not an
	// error. A name that cannot be parsed is an InvalidArgument error.
	ImageStatus(ctx context.Context, image string) (*Image, error)
	// PullImage fetches an image from its registry and returns its reference (the image ID,
	// "sha256:<64 hex>"). It takes the image's pull time of cluster time (derived from its size).
	// auth may be nil; private registries need it. Errors carry containerd's wording (see images.go).
	PullImage(ctx context.Context, image string, auth *AuthConfig) (string, error)
	// RemoveImage deletes an image (by name or ID). Removing a missing image succeeds.
	RemoveImage(ctx context.Context, image string) error
	// ImageFsInfo reports the image filesystem's usage (imagefs.available for the eviction manager).
	ImageFsInfo(ctx context.Context) (*FilesystemUsage, error)
}

// Well-known labels and annotations the kubelet puts on sandboxes and containers
// (pkg/kubelet/types/labels.go and kuberuntime/labels.go). The runtime stores and returns them untouched;
// this is how the kubelet, after a restart, tells which pod and which attempt a container belongs to.
const (
	LabelPodName            = "io.kubernetes.pod.name"
	LabelPodNamespace       = "io.kubernetes.pod.namespace"
	LabelPodUID             = "io.kubernetes.pod.uid"
	LabelContainerName      = "io.kubernetes.container.name"
	AnnotationRestartCount  = "io.kubernetes.container.restartCount"
	AnnotationContainerHash = "io.kubernetes.container.hash"
	AnnotationGracePeriod   = "io.kubernetes.pod.terminationGracePeriod"
)

// PauseImage is the sandbox ("infra") image containerd runs for every pod; it is pinned, so the kubelet's
// image garbage collector never removes it.
const PauseImage = "registry.k8s.io/pause:3.10"

// VersionResponse is the runtime's answer to Version.
type VersionResponse struct {
	Version           string // the CRI API version the kubelet speaks, "0.1.0"
	RuntimeName       string // "containerd"
	RuntimeVersion    string // e.g. "2.0.2"
	RuntimeAPIVersion string // "v1"
}

// RuntimeCondition is one of the runtime's conditions (RuntimeReady, NetworkReady).
type RuntimeCondition struct {
	Type    string
	Status  bool
	Reason  string
	Message string
}

// Runtime condition types, as in CRI.
const (
	RuntimeReady = "RuntimeReady"
	NetworkReady = "NetworkReady"
)

// RuntimeStatus is the answer to Status.
type RuntimeStatus struct {
	Conditions []RuntimeCondition
}

// PodSandboxMetadata names the pod a sandbox belongs to; Attempt counts sandboxes created for the same
// pod (a new sandbox after the old one died, e.g. after a node reboot).
type PodSandboxMetadata struct {
	Name      string
	UID       string
	Namespace string
	Attempt   uint32
}

// PortMapping is a container port published on the node (hostPort).
type PortMapping struct {
	Protocol      string // "TCP", "UDP", "SCTP"
	ContainerPort int32
	HostPort      int32
	HostIP        string
}

// PodSandboxConfig is what the kubelet asks for in RunPodSandbox, built from the Pod spec.
type PodSandboxConfig struct {
	Metadata     PodSandboxMetadata
	Hostname     string
	LogDirectory string // /var/log/pods/<namespace>_<name>_<uid>
	PortMappings []PortMapping
	// HostNetwork puts the sandbox in the node's network namespace (CRI:
	// linux.security_context.namespace_options.network = NODE): no CNI ADD, no pod IP.
	HostNetwork bool
	Labels      map[string]string
	Annotations map[string]string
}

// PodSandboxState is a sandbox's state.
type PodSandboxState int

// The two sandbox states of CRI.
const (
	SandboxReady    PodSandboxState = iota // SANDBOX_READY: the pause container runs, the network is set up
	SandboxNotReady                        // SANDBOX_NOTREADY: stopped (or its pause container died)
)

func (s PodSandboxState) String() string {
	if s == SandboxReady {
		return "SANDBOX_READY"
	}
	return "SANDBOX_NOTREADY"
}

// PodSandboxNetworkStatus is the sandbox's network: the pod IP, empty for a sandbox on the host's
// network (the kubelet then reports the node's IP as the pod's).
type PodSandboxNetworkStatus struct {
	IP string
}

// PodSandbox is one entry of ListPodSandbox.
type PodSandbox struct {
	ID          string
	Metadata    PodSandboxMetadata
	State       PodSandboxState
	CreatedAt   time.Time
	Labels      map[string]string
	Annotations map[string]string
}

// PodSandboxStatus is the answer to PodSandboxStatus.
type PodSandboxStatus struct {
	ID          string
	Metadata    PodSandboxMetadata
	State       PodSandboxState
	CreatedAt   time.Time
	Network     PodSandboxNetworkStatus
	Labels      map[string]string
	Annotations map[string]string
}

// PodSandboxFilter selects sandboxes; every set field must match.
type PodSandboxFilter struct {
	ID            string
	State         *PodSandboxState
	LabelSelector map[string]string
}

// ContainerMetadata names a container within its pod; Attempt is the restart count the kubelet assigns
// (0 for the first run).
type ContainerMetadata struct {
	Name    string
	Attempt uint32
}

// KeyValue is one environment variable.
type KeyValue struct {
	Key   string
	Value string
}

// LinuxContainerResources is the cgroup configuration the kubelet derives from the container's
// resources: CPU shares from requests.cpu, CFS quota/period from limits.cpu, the memory limit from
// limits.memory. Zero means unset (unlimited). Only MemoryLimitInBytes changes the fake's behaviour
// (OOM kill, see doc.go).
type LinuxContainerResources struct {
	CPUPeriod          int64
	CPUQuota           int64
	CPUShares          int64
	MemoryLimitInBytes int64
}

// ContainerConfig is what the kubelet asks for in CreateContainer, built from the Pod's container spec.
type ContainerConfig struct {
	Metadata    ContainerMetadata
	Image       string // as written in the pod spec; the runtime resolves it
	Command     []string
	Args        []string
	WorkingDir  string
	Envs        []KeyValue
	Labels      map[string]string
	Annotations map[string]string
	LogPath     string // relative to the sandbox's LogDirectory: <name>/<attempt>.log
	Resources   *LinuxContainerResources
	// Files are the files of the container's configMap and secret volumes, by their path in the
	// container, as the kubelet projected them when it created the container: kubesim's stand-in
	// for CRI's Mounts, whose host directories the kubelet fills. The shell's cat and test read them.
	Files map[string]string
}

// ContainerState is a container's state.
type ContainerState int

// The container states of CRI.
const (
	ContainerCreated ContainerState = iota // CONTAINER_CREATED
	ContainerRunning                       // CONTAINER_RUNNING
	ContainerExited                        // CONTAINER_EXITED
	ContainerUnknown                       // CONTAINER_UNKNOWN
)

func (s ContainerState) String() string {
	switch s {
	case ContainerCreated:
		return "CONTAINER_CREATED"
	case ContainerRunning:
		return "CONTAINER_RUNNING"
	case ContainerExited:
		return "CONTAINER_EXITED"
	}
	return "CONTAINER_UNKNOWN"
}

// Container is one entry of ListContainers.
type Container struct {
	ID           string
	PodSandboxID string
	Metadata     ContainerMetadata
	Image        string // the resolved name, docker.io/library/nginx:1.25
	ImageRef     string // the repo digest, docker.io/library/nginx@sha256:... (a pod status's imageID)
	State        ContainerState
	CreatedAt    time.Time
	Labels       map[string]string
	Annotations  map[string]string
}

// ContainerStatus is the answer to ContainerStatus, as of the clock's now.
type ContainerStatus struct {
	ID         string
	Metadata   ContainerMetadata
	State      ContainerState
	CreatedAt  time.Time
	StartedAt  time.Time // zero until started
	FinishedAt time.Time // zero until exited
	ExitCode   int32
	// Reason is containerd's word for why it exited: "Completed" (exit 0), "Error" (non-zero),
	// "OOMKilled" (the cgroup's OOM killer, exit 137), "Unknown" (lost in a node crash, exit 255).
	Reason string
	// Message is containerd's explanation, set when the process could not start (reason
	// "StartError", exit code 128); the kubelet reads terminationMessagePolicy's log fallback itself.
	Message     string
	Image       string
	ImageRef    string
	Labels      map[string]string
	Annotations map[string]string
	LogPath     string
	Resources   *LinuxContainerResources
}

// ContainerFilter selects containers; every set field must match.
type ContainerFilter struct {
	ID            string
	PodSandboxID  string
	State         *ContainerState
	LabelSelector map[string]string
}

// ProbeType says which of the kubelet's probes this is. A real application cannot tell; kubesim passes
// it so that a container can be told to fail only its liveness or only its readiness probe (doc.go).
type ProbeType string

// The kubelet's three probes.
const (
	StartupProbe   ProbeType = "Startup"
	LivenessProbe  ProbeType = "Liveness"
	ReadinessProbe ProbeType = "Readiness"
)

// Probe is one probe attempt. Exactly one handler is set, as in the Pod API.
type Probe struct {
	Type      ProbeType
	Host      string           // the address the kubelet dials: the pod's IP (the node's, with hostNetwork)
	Exec      *ExecAction      // run a command in the container (CRI ExecSync)
	HTTPGet   *HTTPGetAction   // GET http://<host>:<port><path>, success is 200-399
	TCPSocket *TCPSocketAction // open a TCP connection to <host>:<port>
}

// ExecAction is an exec probe's command.
type ExecAction struct{ Command []string }

// HTTPGetAction is an HTTP probe's target.
type HTTPGetAction struct {
	Path string
	Port int32
}

// TCPSocketAction is a TCP probe's target.
type TCPSocketAction struct{ Port int32 }

// ProbeResult is the outcome of a probe: success, and the output the kubelet puts in its
// "Liveness probe failed: <output>" event.
type ProbeResult struct {
	Success bool
	Output  string
}

// LogLine is one line of a container's log, in the CRI log format's parts
// ("2024-01-01T00:00:05.000000000Z stdout F <log>").
type LogLine struct {
	Time   time.Time
	Stream string // "stdout" or "stderr"
	Log    string
}

// AuthConfig carries registry credentials (from the pod's imagePullSecrets).
type AuthConfig struct {
	Username      string
	Password      string
	ServerAddress string
}

// Image is one image in the node's store.
type Image struct {
	ID          string   // sha256:<64 hex>
	RepoTags    []string // docker.io/library/nginx:1.25
	RepoDigests []string // docker.io/library/nginx@sha256:...
	Size        uint64   // bytes, unpacked
	Pinned      bool     // the sandbox image: never garbage-collected
}

// FilesystemUsage is a filesystem's usage, for imagefs.available and nodefs.available.
type FilesystemUsage struct {
	Timestamp     time.Time
	UsedBytes     uint64
	CapacityBytes uint64 // kubesim addition: CRI leaves capacity to cAdvisor
	InodesUsed    uint64
}

// ContainerStats is one running container's usage.
type ContainerStats struct {
	ContainerID  string
	PodSandboxID string
	Metadata     ContainerMetadata
	Labels       map[string]string
	// MemoryWorkingSetBytes is what the eviction manager and the OOM killer look at.
	MemoryWorkingSetBytes uint64
	// RootfsUsedBytes is the size of its writable layer: its ephemeral-storage use.
	RootfsUsedBytes uint64
}

// NodeStats is the node-level summary the eviction manager reads.
type NodeStats struct {
	Timestamp             time.Time
	Containers            []ContainerStats // running containers, sorted by ID
	MemoryWorkingSetBytes uint64           // sum over running containers
	Fs                    FilesystemUsage  // the node's filesystem: nodefs and imagefs alike (disk.go)
}

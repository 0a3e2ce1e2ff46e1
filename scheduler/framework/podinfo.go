// podinfo.go: PodInfo, a pod with what the scheduler computes from it once and reads many times: its
// resource requests (plain and "non-zero" for scoring) and its parsed pod (anti-)affinity terms
// (framework.PodInfo in Kubernetes). Interface: Resource, PodInfo, NewPodInfo, AffinityTerm,
// WeightedAffinityTerm, QueuedPodInfo, PodPriority.
package framework

import (
	"time"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/api/resource"
)

// The requests the scheduler assumes, for scoring only, for a container that requests no cpu or no
// memory (DefaultMilliCPURequest and DefaultMemoryRequest in Kubernetes). Without them a node full of
// pods with no requests would still look empty to the LeastAllocated score, and every such pod would
// pile onto it. Filtering never uses them: a pod without requests fits anywhere.
const (
	DefaultMilliCPURequest int64 = 100               // 0.1 core
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024 // 200 MiB
)

// Resource is a set of resource amounts in the units the scheduler sums: millicores, bytes, pods.
// Extended resources (example.com/gpu) go in Scalar, which stays nil when there are none.
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int
	Scalar           map[resource.ResourceName]int64
}

// NewResource sums a ResourceList into a Resource.
func NewResource(rl resource.ResourceList) Resource {
	var r Resource
	r.AddList(rl)
	return r
}

// AddList adds every quantity of rl.
func (r *Resource) AddList(rl resource.ResourceList) {
	for name, q := range rl {
		switch name {
		case resource.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case resource.ResourceMemory:
			r.Memory += q.Value()
		case resource.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		case resource.ResourcePods:
			r.AllowedPodNumber += int(q.Value())
		default:
			if r.Scalar == nil {
				r.Scalar = map[resource.ResourceName]int64{}
			}
			r.Scalar[name] += q.Value()
		}
	}
}

// add adds (sign 1) or subtracts (sign -1) other. Scalar maps are copied, never shared, because a
// Resource lives in an immutable NodeInfo.
func (r *Resource) add(other *Resource, sign int64) {
	r.MilliCPU += sign * other.MilliCPU
	r.Memory += sign * other.Memory
	r.EphemeralStorage += sign * other.EphemeralStorage
	r.AllowedPodNumber += int(sign) * other.AllowedPodNumber
	if len(other.Scalar) > 0 {
		scalar := make(map[resource.ResourceName]int64, len(r.Scalar)+len(other.Scalar))
		for k, v := range r.Scalar {
			scalar[k] = v
		}
		for k, v := range other.Scalar {
			scalar[k] += sign * v
		}
		r.Scalar = scalar
	}
}

// PodInfo is a pod plus what the scheduler derives from it.
type PodInfo struct {
	Pod *api.Pod
	// Requests is the sum of the containers' requests.
	Requests Resource
	// NonZeroCPU and NonZeroMem are the requests with the scoring defaults filled in.
	NonZeroCPU, NonZeroMem int64

	RequiredAffinityTerms      []AffinityTerm
	RequiredAntiAffinityTerms  []AffinityTerm
	PreferredAffinityTerms     []WeightedAffinityTerm
	PreferredAntiAffinityTerms []WeightedAffinityTerm
	// ParseError is set when a label selector in the affinity terms does not parse; the
	// InterPodAffinity plugin reports it. (The apiserver validates selectors, so it is rare.)
	ParseError error

	// class is the pod's class for CountPods (podcounts.go): its namespace, labels, terminating.
	class *podClass
}

// NewPodInfo computes a pod's PodInfo. The pod is shared, never modified.
func NewPodInfo(pod *api.Pod) *PodInfo {
	pi := &PodInfo{Pod: pod, class: classOf(pod)}
	pi.Requests, pi.NonZeroCPU, pi.NonZeroMem = PodRequests(pod)
	if a := pod.Spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			pi.RequiredAffinityTerms = pi.terms(pa.RequiredDuringSchedulingIgnoredDuringExecution)
			pi.PreferredAffinityTerms = pi.weightedTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if paa := a.PodAntiAffinity; paa != nil {
			pi.RequiredAntiAffinityTerms = pi.terms(paa.RequiredDuringSchedulingIgnoredDuringExecution)
			pi.PreferredAntiAffinityTerms = pi.weightedTerms(paa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	return pi
}

// PodRequests sums the requests of a pod's containers, and the cpu and memory requests with the
// scoring defaults filled in for containers that request none.
func PodRequests(pod *api.Pod) (requests Resource, nonZeroCPU, nonZeroMem int64) {
	for i := range pod.Spec.Containers {
		req := pod.Spec.Containers[i].Resources.Requests
		requests.AddList(req)
		if cpu, ok := req[resource.ResourceCPU]; ok {
			nonZeroCPU += cpu.MilliValue()
		} else {
			nonZeroCPU += DefaultMilliCPURequest
		}
		if mem, ok := req[resource.ResourceMemory]; ok {
			nonZeroMem += mem.Value()
		} else {
			nonZeroMem += DefaultMemoryRequest
		}
	}
	return requests, nonZeroCPU, nonZeroMem
}

// AffinityTerm is a parsed PodAffinityTerm: which pods it selects and the topology key whose value
// defines "the same place".
type AffinityTerm struct {
	Namespaces  []string
	Selector    labels.Selector
	TopologyKey string
}

// Matches reports whether pod is selected by the term.
func (t *AffinityTerm) Matches(pod *api.Pod) bool {
	for _, ns := range t.Namespaces {
		if ns == pod.Namespace {
			return t.Selector.Matches(labels.Set(pod.Labels))
		}
	}
	return false
}

// WeightedAffinityTerm is a preferred term with its weight (1-100).
type WeightedAffinityTerm struct {
	AffinityTerm
	Weight int32
}

func (pi *PodInfo) term(t *api.PodAffinityTerm) AffinityTerm {
	sel, err := t.LabelSelector.AsSelector()
	if err != nil {
		pi.ParseError = err
		sel = labels.Nothing()
	}
	namespaces := t.Namespaces
	if len(namespaces) == 0 {
		// An empty namespaces list means the pod's own namespace.
		namespaces = []string{pi.Pod.Namespace}
	}
	return AffinityTerm{Namespaces: namespaces, Selector: sel, TopologyKey: t.TopologyKey}
}

func (pi *PodInfo) terms(in []api.PodAffinityTerm) []AffinityTerm {
	if len(in) == 0 {
		return nil
	}
	out := make([]AffinityTerm, len(in))
	for i := range in {
		out[i] = pi.term(&in[i])
	}
	return out
}

func (pi *PodInfo) weightedTerms(in []api.WeightedPodAffinityTerm) []WeightedAffinityTerm {
	if len(in) == 0 {
		return nil
	}
	out := make([]WeightedAffinityTerm, len(in))
	for i := range in {
		out[i] = WeightedAffinityTerm{AffinityTerm: pi.term(&in[i].PodAffinityTerm), Weight: in[i].Weight}
	}
	return out
}

// PodPriority is spec.priority, or 0 when the Priority admission plugin did not set it.
func PodPriority(pod *api.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// QueuedPodInfo is a pod waiting in the scheduling queue, with its queueing history.
type QueuedPodInfo struct {
	*PodInfo
	// Timestamp is when the pod was last added to the queue: the queue's order among equal
	// priorities, and the start of its backoff.
	Timestamp time.Time
	// InitialAttemptTimestamp is when the pod was first popped for scheduling.
	InitialAttemptTimestamp time.Time
	// Attempts counts scheduling cycles; the backoff doubles with each.
	Attempts int
	// UnschedulablePlugins are the plugins that rejected the pod in its last cycle: only a cluster
	// event one of them registered for can make it schedulable, so only such events move it back.
	UnschedulablePlugins []string
	// Seq is the order of first arrival, the last tie-breaker of the queue.
	Seq uint64
}

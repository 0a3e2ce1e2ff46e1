// interface.go: the plugin contract (framework/interface.go in Kubernetes). A plugin is anything with
// a Name; it takes part in every extension point whose interface it implements. The points run in
// this order for each pod:
//
//	QueueSort            which pod to schedule next
//	PreFilter            once per pod: compute state, or reject the pod outright
//	Filter               once per node: can the pod run here? (formerly called predicates)
//	PostFilter           only if no node passed: make room (preemption)
//	PreScore             once per pod, over the nodes that passed
//	Score                once per node: how good is it? 0..100 after NormalizeScore, times a weight
//	Reserve / Unreserve  the pod is assumed onto the chosen node / the assumption is undone
//	PreBind              prepare what the pod needs there (its volumes) before it is bound
//	Bind                 write the decision: POST pods/<name>/binding
//
// Interface: Plugin and one interface per extension point, Handle, Nominator, PostFilterResult,
// NodeScore, PluginScore, NodePluginScores, MaxNodeScore.
package framework

import (
	"context"
	"math/rand"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/trace"
)

// MaxNodeScore is the highest score a plugin gives a node after normalising.
const MaxNodeScore int64 = 100

// Plugin is the one thing every plugin has.
type Plugin interface {
	Name() string
}

// QueueSortPlugin orders the activeQ. Only one may be enabled.
type QueueSortPlugin interface {
	Plugin
	Less(a, b *QueuedPodInfo) bool
}

// PreFilterPlugin runs once per pod before any Filter. Returning Skip means the plugin's Filter is
// not needed for this pod; Unschedulable rejects the pod on every node at once; a PreFilterResult
// (nil: all nodes) narrows the nodes the cycle filters.
type PreFilterPlugin interface {
	Plugin
	PreFilter(ctx context.Context, state *CycleState, pod *api.Pod) (*PreFilterResult, *Status)
	// PreFilterExtensions returns nil, or the hooks that keep the plugin's PreFilter state right when
	// preemption imagines a pod gone, or nominated pods added.
	PreFilterExtensions() PreFilterExtensions
}

// PreFilterExtensions update a plugin's cycle state incrementally.
type PreFilterExtensions interface {
	AddPod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToAdd *PodInfo, nodeInfo *NodeInfo) *Status
	RemovePod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToRemove *PodInfo, nodeInfo *NodeInfo) *Status
}

// FilterPlugin judges one node. It must only read state and nodeInfo: filters run in parallel.
type FilterPlugin interface {
	Plugin
	Filter(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status
}

// PostFilterResult is what a PostFilter plugin achieved: a node the pod may use once it is free.
type PostFilterResult struct {
	NominatedNodeName string
}

// PostFilterPlugin runs when no node passed Filter. m holds every node's rejection.
type PostFilterPlugin interface {
	Plugin
	PostFilter(ctx context.Context, state *CycleState, pod *api.Pod, m NodeToStatus) (*PostFilterResult, *Status)
}

// PreScorePlugin runs once per pod over the feasible nodes; Skip means its Score is not needed.
type PreScorePlugin interface {
	Plugin
	PreScore(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*NodeInfo) *Status
}

// ScorePlugin rates one feasible node. ScoreExtensions may be nil when scores are already 0..100.
type ScorePlugin interface {
	Plugin
	Score(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) (int64, *Status)
	ScoreExtensions() ScoreExtensions
}

// ScoreExtensions rescales a plugin's raw scores of all nodes into 0..MaxNodeScore.
type ScoreExtensions interface {
	NormalizeScore(ctx context.Context, state *CycleState, pod *api.Pod, scores NodeScoreList) *Status
}

// ReservePlugin is told when the pod is assumed onto a node, and when that is undone.
type ReservePlugin interface {
	Plugin
	Reserve(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) *Status
	Unreserve(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string)
}

// PreBindPlugin prepares the node for the pod before Bind; a failure undoes the reservation.
type PreBindPlugin interface {
	Plugin
	PreBind(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) *Status
}

// BindPlugin writes the decision. Skip passes the pod to the next bind plugin.
type BindPlugin interface {
	Plugin
	Bind(ctx context.Context, state *CycleState, pod *api.Pod, nodeName string) *Status
}

// EnqueueExtensions lists the cluster events after which a pod this plugin rejected may fit.
type EnqueueExtensions interface {
	EventsToRegister() []ClusterEvent
}

// NodeScore is one node's score from one plugin.
type NodeScore struct {
	Name  string
	Score int64
}

// NodeScoreList is one plugin's scores of all feasible nodes, in the order of the feasible nodes.
type NodeScoreList []NodeScore

// PluginScore is one plugin's verdict on one node: the raw score, the normalised one, and the
// weighted one that counts towards the total.
type PluginScore struct {
	Plugin   string `json:"plugin"`
	Raw      int64  `json:"raw"`
	Score    int64  `json:"score"`
	Weight   int64  `json:"weight"`
	Weighted int64  `json:"weighted"`
}

// NodePluginScores is a node's scores from every plugin and their weighted sum.
type NodePluginScores struct {
	Name       string
	Scores     []PluginScore
	TotalScore int64
}

// Nominator keeps the pods that preemption nominated to a node: they do not run there yet, but the
// room freed for them must not go to a pod of lower priority.
type Nominator interface {
	NominatedPodsForNode(nodeName string) []*PodInfo
}

// WorkloadLister finds, in the scheduler's informer caches, the objects a pod belongs to: what
// PodTopologySpread reads (through listers, in Kubernetes) to spread a workload's pods by default.
type WorkloadLister interface {
	// Services lists the Services of a namespace.
	Services(namespace string) []*api.Service
	// ReplicaSet returns a ReplicaSet by namespace and name.
	ReplicaSet(namespace, name string) (*api.ReplicaSet, bool)
}

// VolumeLister finds, in the scheduler's informer caches, the storage objects a pod's volumes use:
// what VolumeBinding reads (through listers, in Kubernetes) to tell whether a pod's claims are bound.
type VolumeLister interface {
	// Claim returns a PersistentVolumeClaim by namespace and name.
	Claim(namespace, name string) (*api.PersistentVolumeClaim, bool)
	// Volume returns a PersistentVolume by name.
	Volume(name string) (*api.PersistentVolume, bool)
	// Volumes lists every PersistentVolume.
	Volumes() []*api.PersistentVolume
	// Class returns a StorageClass by name.
	Class(name string) (*api.StorageClass, bool)
}

// DisruptionBudgetLister lists, from the scheduler's informer cache, the PodDisruptionBudgets that
// DefaultPreemption weighs victims against (a lister of the shared informer factory, in Kubernetes).
type DisruptionBudgetLister interface {
	// PodDisruptionBudgets lists every PodDisruptionBudget of every namespace.
	PodDisruptionBudgets() []*api.PodDisruptionBudget
}

// Handle is what the framework gives plugins: the cycle's snapshot, the scheduler's client,
// recorder and workload caches, the clock, and the framework's own runners, which preemption uses
// to ask "would the pod fit if these pods were gone?".
type Handle interface {
	SnapshotSharedLister() *Snapshot
	// Workloads is nil when the scheduler watches no workloads (the algorithm benchmarks).
	Workloads() WorkloadLister
	// Volumes is nil when the scheduler watches no storage objects (the algorithm benchmarks).
	Volumes() VolumeLister
	// DisruptionBudgets is nil when the scheduler watches no budgets (the algorithm benchmarks).
	DisruptionBudgets() DisruptionBudgetLister
	ClientSet() *client.Client
	EventRecorder() *client.EventRecorder
	Clock() clock.Clock
	Nominator() Nominator
	// Rand is the scheduler's seeded source of chance: the same seed, the same choices.
	Rand() *rand.Rand
	// Trace records a trace event with the scheduler's component and identity filled in.
	Trace(e trace.Event)
	ProfileName() string
	RunFilterPluginsWithNominatedPods(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status
	RunPreFilterExtensionAddPod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToAdd *PodInfo, nodeInfo *NodeInfo) *Status
	RunPreFilterExtensionRemovePod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToRemove *PodInfo, nodeInfo *NodeInfo) *Status
}

// Package scheduler is kube-scheduler in miniature (k8s.io/kubernetes/pkg/scheduler): it watches pods
// that have no node yet, chooses a node for each, and binds it there through the apiserver. It never
// starts a container; a kubelet notices the binding and does that.
//
// Read next: schedule_one.go (one pod's scheduling and binding cycle, the heart of it), then
// framework (the plugin interfaces and Status), plugins (each default plugin in one file), queue
// (activeQ, backoffQ, unschedulablePods), cache (NodeInfos and assumed pods). Kubernetes' own
// introduction is https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/ and its
// framework https://kubernetes.io/docs/concepts/scheduling-eviction/scheduling-framework/.
//
// How to use it (what sim does):
//
//  1. New(Options{Client, Clock, Trace, Seed}) with a client authenticated as Identity
//     ("system:kube-scheduler"); Profiles default to one "default-scheduler" profile with the default
//     plugins (plugins.DefaultProfile).
//  2. Add it to a cluster: its informers (pods, nodes) are synced, then either the step driver calls
//     Step (one pod per call: scheduling and binding cycle together), or Run runs it in real time
//     (binding in the background, filtering and scoring on several goroutines when CPUs allow).
//  3. Explain(pod) shows, without binding, every node's verdict from every filter and every score.
//  4. Without a cluster: NewFixed(FixedCluster{Nodes, Pods, ...}) explains and runs one cycle over
//     objects given as they are (fixed.go; difftest/scheduler holds it to kube-scheduler's own code).
//
// What it promises:
//   - Kubernetes' messages: `0/3 nodes are available: 1 node(s) had untolerated taint {...}, 2
//     Insufficient cpu. no new claims to deallocate, preemption: ...` in the FailedScheduling event
//     and the PodScheduled=False condition (reason Unschedulable, or SchedulerError after an error),
//     held to kube-scheduler's own by difftest/scheduler; `Successfully assigned
//     default/web to node-2` (Scheduled); `Preempted by pod <uid> on node <node>` on a victim. Events
//     come from the profile's schedulerName ("default-scheduler").
//   - Profiles by schedulerName; a pod naming a scheduler nobody runs is left alone, silently.
//   - The queue's rules: priority order, 1s..10s exponential backoff, unschedulable pods woken by the
//     cluster events their rejecting plugins registered for, or after 5 minutes.
//   - In step mode, the same trace on every run: nodes are visited in name order (round-robin from
//     where the last cycle stopped), ties are broken by a random source seeded from Options.Seed.
//   - A plugin that errors or panics costs the pod a retry, never the scheduler.
//   - Filter is O(nodes) per pod: each node's requests, ports and affinity pods are precomputed in
//     its NodeInfo, and a cycle looks at only as many nodes as percentageOfNodesToScore asks. The
//     few Node fields filters and scores read on every node (cordoned, taints split by effect, the
//     hostname and zone labels, image sizes) are copied into the NodeInfo when the Node changes,
//     so a cycle at thousands of nodes touches one small object per node, not the Node object.
//   - So are PodTopologySpread's and InterPodAffinity's counts of matching pods, where Kubernetes
//     walks every pod of the cluster in every cycle: each NodeInfo remembers how many of its pods a
//     selector picks (framework/podcounts.go), so a cycle recounts only the nodes whose pods changed
//     since the last one asked, and the snapshot keeps the default spreading's sums per zone, so
//     such a cycle does not even visit the other nodes. The verdicts and scores are the same.
//
// It follows kube-scheduler v1.34 (Explain says so where 1.35 differs: BalancedAllocation's formula
// and the untolerated-taint message).
//
// What it simplifies: VolumeBinding's PreBind does not wait for the binding; NodeVolumeLimits has no
// CSINode limits to apply and VolumeRestrictions no inline disks to compare (kubesim has neither);
// no DRA or scheduling-gate plugins; no extenders; no Permit point; preemption examines
// every node rather than a sample; default topology spreading counts Services and ReplicaSets only
// (kubesim has no StatefulSets or ReplicationControllers); queueing hints are matched on the event
// type only; backoff and the 5-minute limit are exact timers where Kubernetes polls every second and
// every 30 seconds.
package scheduler

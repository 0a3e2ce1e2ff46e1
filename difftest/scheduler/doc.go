// Package scheduler holds kubesim's scheduler to kube-scheduler's own code at v1.34.1: seeded,
// generated small clusters go through kubesim's scheduler (scheduler.NewFixed: Explain and one
// scheduling cycle) and through k8s.io/kubernetes/pkg/scheduler (scheduler.New with the default
// profile over a fake clientset, SchedulePod, PostFilter, and each plugin called on its own), and the
// test fails where they differ.
//
// It is a module of its own, beside difftest, because k8s.io/kubernetes is heavy: it needs a replace
// directive for every k8s.io staging module (all at v0.34.1, see go.mod) and a few minutes of
// compiling, which neither the main module nor difftest should carry. CI runs it with
// `(cd difftest/scheduler && go test ./...)`. To search further seeds:
//
//	go test -run TestScheduler -seeds 5000
//	go test -run XXX -fuzz FuzzScheduler -fuzztime 5m   (the fuzz build instruments k8s.io/kubernetes: slow)
//
// A case is 1 to 8 nodes (mixed allocatable cpu and memory, 0 to 110 pods allowed, zones, disk
// labels, cordons, NoSchedule, PreferNoSchedule and NoExecute taints, images of four sizes), up to
// 12 bound pods (requests or none, host ports, images, pod affinity and anti-affinity, two
// namespaces), sometimes a Service and a ReplicaSet, and the pending pod: requests, nodeSelector,
// required and preferred node affinity (matchFields on metadata.name included), tolerations, host
// ports, topology spread constraints (minDomains included), pod affinity and anti-affinity, an owning
// ReplicaSet (default spreading), now and then a spec.nodeName.
//
// What is compared, for every case:
//
//	PreFilter         a rejection before any node: plugin and message
//	narrowed nodes    the nodes a PreFilterResult left out (NodeAffinity on metadata.name)
//	filter            every filter plugin's code and reasons on every node it ran on
//	score             every score plugin's raw score, normalised score and weight on every feasible node
//	best nodes        the nodes sharing the highest total; each side's cycle must pick one of them
//	FitError          the message before PostFilter (what kubesim's explain prints)
//	FailedScheduling  the whole message, PostFilter's sentences included
//	preemption        with priorities, start times and PodDisruptionBudgets (two cases in three): every
//	                  candidate node with its victims in order and its budget violations (DryRunPreemption
//	                  over all nodes where removing pods may help: fewer than 100, so no sampling), and
//	                  the node SelectCandidate nominates (it breaks ties at random: kubesim's pick must be
//	                  one it makes)
//
// What is not: the eviction of the victims (the preemption scenarios and the scheduler's own tests hold
// the rest), volumes and resource claims (Kubernetes' VolumeRestrictions, NodeVolumeLimits, VolumeZone
// and DynamicResources filters must skip or pass, which the harness checks; kubesim has only
// VolumeBinding), and the plugins' arguments (both sides run the default profile). No difference is
// kept on purpose: a new one fails the test.
package scheduler

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
// ReplicaSet (default spreading), now and then a spec.nodeName. In one case in two there is storage:
// StorageClasses (Immediate or WaitForFirstConsumer, with a provisioner or kubernetes.io/no-provisioner,
// now and then missing), PersistentVolumes (sizes, access modes ReadWriteOncePod included, phases,
// node affinity on a hostname or a zone, zone and region labels in GA, beta, multi-zone and
// unparsable forms) and claims (bound and bind-completed, pre-bound but not complete, bound to a
// volume that does not exist, waiting for their first consumer with or without a selected node,
// Immediate and unbound, ReadWriteOncePod), bound pods that mount them, and a pending pod with one or
// two claims (now and then a missing one); nodes then get region or beta zone labels too.
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
// The test fails unless a third of the pending pods mount claims and each of VolumeRestrictions,
// VolumeBinding and VolumeZone rejects the pod in one case in 50, so that the volume comparison cannot
// go quiet. VolumeBinding's assume caches fill from informer handlers of their own after the informers
// sync; the harness waits for them (reading their private handler registrations by reflection).
//
// What is not: the eviction of the victims (the preemption scenarios and the scheduler's own tests hold
// the rest), resource claims (Kubernetes' DynamicResources filter must skip or pass, which the harness
// checks), CSI volumes and CSINode limits (kubesim has neither, so NodeVolumeLimits passes on both
// sides once the claims exist), the inline disks VolumeRestrictions compares (GCE PD, EBS, iSCSI, RBD:
// kubesim's pods have none), storage capacity tracking, and the plugins' arguments (both sides run the
// default profile). No difference is kept on purpose: a new one fails the test.
package scheduler

// Package kubelet is the node agent: kubesim's kubelet, mirroring k8s.io/kubernetes/pkg/kubelet.
//
// Read next: kubelet.go (the Kubelet and its two loops), then node_status.go and lease.go (how a node
// joins and stays alive in the control plane's eyes), pod_workers.go and sync_pod.go (how a pod bound
// to this node becomes running containers), pod_updates.go (which updates sync a pod), and the files for each mechanism: images.go, prober.go,
// restarts.go (CrashLoopBackOff, and what kubectl shows between a crash and its restart), pleg.go,
// status_manager.go, termination.go, admission.go, eviction.go, image_gc.go, container_gc.go,
// network.go (the podCIDR), static_pods.go (the control plane's own pods on a control-plane node). The runtime it drives is
// kubesim/runtime (fakeruntime), through the CRI-shaped interfaces of runtime/cri.go only. In the
// Kubernetes sources, start at pkg/kubelet/kubelet.go (syncLoop, SyncPod) and
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions, SyncPod).
//
// What a kubelet promises:
//
//  1. It registers its Node (capacity, allocatable = capacity - reserved - hard eviction thresholds,
//     labels, taints, addresses, nodeInfo, images) and retries until the apiserver accepts it.
//  2. It renews its Lease in kube-node-lease every 10s (leaseDurationSeconds 40), and writes its node
//     status when a condition changes or every 5 minutes: Ready, MemoryPressure, DiskPressure,
//     PIDPressure, with Kubernetes' reasons and messages.
//  3. It runs the pods bound to it, and only those: it watches pods with fieldSelector
//     spec.nodeName=<node>, which is all the apiserver's Node authorizer lets it see. For each pod:
//     node admission, the sandbox (pause container and pod IP), image pulls per imagePullPolicy with
//     ImagePullBackOff, container start (its environment holds the variables of the namespace's
//     Services, which it reads from an informer of its own, service_env.go), probes, restarts per
//     restartPolicy with CrashLoopBackOff (10s doubling to 300s, reset after 10 minutes of running;
//     the status shows Error after each exit, CrashLoopBackOff from the pod worker's retry 10s
//     later), and a status written through pods/status only when it changed. An update from the
//     apiserver syncs the pod only when its spec, labels, annotations or deletion changed; one that
//     changes only the status (the kubelet's own writes above all) is reconciled by the status
//     manager every 10s instead (pod_updates.go).
//  4. It stops a deleted pod gracefully (SIGTERM, SIGKILL after terminationGracePeriodSeconds),
//     removes its sandbox, and then deletes it with grace period 0.
//  5. It notices runtime trouble: Ready=False with "container runtime is down" 30 seconds after the
//     runtime last answered its 5-second status check, and "PLEG is not healthy" after 3 minutes
//     without a relist; runtime calls time out after 2 minutes (--runtime-request-timeout). It notices
//     memory and disk pressure through its eviction manager, which reclaims dead containers and
//     unused images first (for disk) and then evicts pods in Kubernetes' order; its image garbage
//     collector frees the disk from 85% used down to 80%. Until
//     its Node has a podCIDR for the CNI plugin, the node is NotReady with "container runtime
//     network not ready" and only hostNetwork pods start (they get the node's IP); a starting
//     kubelet checks every 100ms so that Ready follows the podCIDR at once.
//  6. It stays autonomous: when the apiserver cannot be reached, or rejects its credential, running
//     containers keep running and pods keep being synced from what it last saw; status writes catch
//     up later. Only the control plane's view suffers: no Lease renewals, so the node goes NotReady.
//
// How time passes: every wait is on the injected clock. In step mode the kubelet exposes one unit of
// work per Step (register, renew the Lease, report node status, sync one pod, write one pod status,
// evict one pod); periodic work (relist every 1s, the runtime status check every 5s, housekeeping every 10s, probes, backoffs) rides on
// clock timers. Give the runtime a CRIClock (cri.go) so that slow runtime calls, image pulls above
// all, overlap across nodes in virtual time as they do in a real cluster.
//
// What kubesim simplifies: static pods run through their mirror pods (static_pods.go), no volume mounts (a pod only waits for its
// PersistentVolumeClaims to be bound, volumes.go), no sidecar or ephemeral containers, cgroups,
// soft eviction thresholds, inode signals, a separate image filesystem, container log rotation, or
// probe timeouts; exec, HTTP and TCP probes are all
// answered by the runtime; the pod workers are one queue rather than a goroutine per pod.
package kubelet

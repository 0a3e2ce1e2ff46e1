// Package daemonset is the DaemonSet controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/daemon): one pod of a DaemonSet on every node that should run
// one, as log collectors, node agents and network plugins need.
//
// Read next: daemonset.go (the component and its handlers), eligibility.go (which nodes should run a
// daemon pod, nodeShouldRunDaemonPod), pod.go (the pod it creates), sync.go (Reconcile: create,
// delete, status), then Kubernetes' "DaemonSet" concept page, in particular "How Daemon Pods are
// scheduled" and "Taints and tolerations".
//
// What it promises, as Kubernetes does:
//
//  1. A node should run the pod if the template's nodeSelector and required node affinity match it
//     and the pod tolerates its NoSchedule and NoExecute taints. A pod already running stays on a
//     node whose new taints are only NoSchedule; an untolerated NoExecute taint removes it.
//  2. Daemon pods get tolerations automatically: node.kubernetes.io/not-ready and unreachable
//     (NoExecute, without tolerationSeconds, so they are never evicted from a sick node),
//     disk-pressure, memory-pressure, pid-pressure and unschedulable (NoSchedule; a cordoned node
//     still runs its daemons), and network-unavailable for hostNetwork pods.
//  3. The controller does not place pods itself: it creates each pod with a required node affinity
//     on the field metadata.name of its node, and the default scheduler binds it there (Kubernetes
//     1.12+; before, the controller set nodeName directly).
//  4. Each pod carries a controller ownerReference (blockOwnerDeletion) to the DaemonSet, so deleting
//     the DaemonSet lets the garbage collector remove its pods. Events: SuccessfulCreate "Created
//     pod: <name>", SuccessfulDelete "Deleted pod: <name>", FailedDaemonPod for failed pods.
//  5. Expectations: after creating or deleting pods it waits to see them in its cache before it
//     counts again, so a lagging cache never makes it create a second pod for a node.
//  6. status: desiredNumberScheduled, currentNumberScheduled, numberMisscheduled, numberReady,
//     numberAvailable, numberUnavailable, updatedNumberScheduled, observedGeneration.
//
// What it simplifies: no ControllerRevisions, so no controller-revision-hash label and no rolling
// update of changed templates (pods are labelled pod-template-generation, and
// updatedNumberScheduled counts those of the current generation); no slow-start batching of creates;
// minReadySeconds counts from the pod's Ready transition.
package daemonset

// Package deployment is the Deployment controller of kube-controller-manager (k8s.io/kubernetes
// pkg/controller/deployment). A Deployment owns one ReplicaSet per version of its pod template,
// named "<deployment>-<pod-template-hash>"; the controller rolls pods from the old ReplicaSets to the
// new one by resizing them, and the ReplicaSet controller (package replicaset) makes or removes the
// pods.
//
// Read next: deployment_controller.go (syncDeployment), rolling.go, recreate.go, sync.go, progress.go
// and util/deployment_util.go in Kubernetes; the "Deployments" concept page for the behaviour.
//
// How to use it:
//
//  1. Build it with a client that authenticates as system:kube-controller-manager, the cluster clock,
//     the trace recorder and an event recorder for "deployment-controller": New(...).
//  2. Add it to a cluster (sim.Cluster.Add), which syncs its informers (Deployments, ReplicaSets, Pods).
//  3. Step mode: Step reconciles one queued Deployment. Real time: Run.
//
// `kubectl rollout undo` is not the controller's: kubectl copies an old revision's template into the
// Deployment (package kubectl), and the controller rolls it out like any other template change.
//
// What it promises, as Kubernetes does:
//
//   - The new ReplicaSet carries the label pod-template-hash (also in its selector and template), a
//     controller reference to the Deployment, and the annotations deployment.kubernetes.io/revision
//     (plus revision-history when an old ReplicaSet becomes new again), desired-replicas and
//     max-replicas. The Deployment carries the revision annotation of its new ReplicaSet.
//   - RollingUpdate keeps the ReplicaSets' total at most replicas + maxSurge and the available pods at
//     least replicas - maxUnavailable (defaults 25%/25%; surge rounds up, unavailable down).
//   - Recreate scales every old ReplicaSet to 0, waits until their pods are gone, then scales up.
//   - Scaling (spec.replicas) applies at once, in proportion across ReplicaSets mid-rollout, and even
//     while paused; a paused Deployment starts no rollout.
//   - Old ReplicaSets beyond revisionHistoryLimit are deleted once scaled to 0.
//   - Status counts and the conditions Available and Progressing with Kubernetes' reasons and messages,
//     including ProgressDeadlineExceeded after progressDeadlineSeconds without progress (a clock timer).
//   - Events ScalingReplicaSet "Scaled up replica set nginx-77bf8679f9 from 0 to 3".
//
// The pod-template-hash is Kubernetes 1.34's: FNV-32a over go-spew's print of the k8s.io/api
// v1.PodTemplateSpec struct, which kubesim prints from the layout of k8s.io/api v0.34.1 (layout.go,
// generated and checked by difftest/deployment, which also holds the hash to the controller's own
// ComputeHash after the real apiserver's defaulting). So `kubectl create deployment nginx
// --image=nginx` gives ReplicaSet nginx-66686b6766 here as on a real 1.34 cluster. A template that sets
// a field kubesim does not model (a container's workingDir, say) hashes differently, since kubesim
// drops the field.
//
// What it simplifies: adoption trusts the cache rather than re-reading the Deployment; the controller writes the revision
// annotation with an update of the Deployment and the status with an update of the status subresource
// (Kubernetes' status strategy lets one status update carry both).
package deployment

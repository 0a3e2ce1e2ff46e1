// Package replicaset is the ReplicaSet controller of kube-controller-manager (k8s.io/kubernetes
// pkg/controller/replicaset). It keeps spec.replicas pods running for every ReplicaSet: when a pod
// disappears it makes another (with a new name), when there are too many it deletes the least useful.
//
// Read next: replica_set.go in Kubernetes (syncReplicaSet, manageReplicas, slowStartBatch), then
// pkg/controller/controller_utils.go (ControllerExpectations, ActivePodsWithRanks) and
// controller_ref_manager.go (adoption). The Deployment controller (package deployment) drives this
// one by resizing ReplicaSets.
//
// How to use it:
//
//  1. Build it with a client that authenticates as system:kube-controller-manager, the cluster clock,
//     the trace recorder and an event recorder for "replicaset-controller": New(...).
//  2. Add it to a cluster (sim.Cluster.Add), which syncs its two informers (ReplicaSets and Pods).
//  3. Step mode: Step reconciles one queued ReplicaSet. Real time: Run.
//
// What it promises, as Kubernetes does:
//
//   - Pods are built from spec.template with generateName "<replicaset>-" and a controller reference
//     (apps/v1 ReplicaSet, controller and blockOwnerDeletion true); events SuccessfulCreate
//     "Created pod: <name>", SuccessfulDelete "Deleted pod: <name>", FailedCreate "Error creating: <err>".
//   - Expectations: after asking for N creates (or deletes) it does not act on that ReplicaSet again
//     until its informer has shown all N, or ExpectationsTimeout (5 minutes) has passed, so a lagging
//     cache never makes it create twice.
//   - Creates go in slow-start batches of 1, 2, 4, ...; a failure stops the remaining batches.
//   - Deletes take the least useful pods first (ranking.go): unscheduled, then Pending, not ready,
//     lower pod-deletion-cost, doubled up on a node, ready for less time and newer (in the logarithmic
//     buckets of LogarithmicScaleDown, ties by UID), more restarts.
//   - Orphan pods matching the selector are adopted; owned pods whose labels stop matching are released.
//   - Status (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas honouring
//     minReadySeconds, observedGeneration, ReplicaFailure) is written, only when it changed.
//
// What it simplifies: creates within a batch run one after another, not in parallel; no
// terminatingReplicas in status. In real time, a pod change that can only move the status (a pod
// scheduled, started, ready) syncs its ReplicaSet after a delay of four times its last sync, so
// recounting 10,000 pods does not take a core (batch.go); in step mode the delay is zero.
package replicaset

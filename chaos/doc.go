// Package chaos is the chaos soak behind `kubesim chaos`: a cluster doing ordinary work while a seeded
// random hand breaks it (kubelets stopping, partitions, leader kills, a frozen scheduler, slow and
// compacted etcd, conflicting writers, a hanging webhook), with the cluster's invariants checked after
// every unit of work. It mirrors, in small, etcd's robustness tests (failpoints injected during a
// workload, the history checked afterwards) and the property Kubernetes' controllers are built for:
// level-based reconciling reaches the desired state again once the faults stop.
//
// Read next: chaos.go for the soak (Run, Config, Report), invariants.go for what must never happen
// (Invariants) and what must happen in the end (DeploymentsAvailable); package sim's faults.go for the
// faults themselves.
//
// What it promises:
//
//  1. The same seed gives the same soak: the cluster runs in step mode, and every fault and its
//     instant come from the seed, so a violation found once replays.
//  2. Invariants checked after every unit of work: no pod bound twice, no ReplicaSet above replicas +
//     maxSurge, no pod on a node that does not exist, no Deployment lost.
//  3. Desired state once the faults stop: everything is healed and every Deployment must become
//     available within Config.Converge.
//
// What it simplifies: the faults are sim's (a component stopped or cut off, etcd slowed), not a real
// network's; etcd itself is never corrupted.
//
// Only cmd and tests import chaos.
package chaos

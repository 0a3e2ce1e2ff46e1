// Package resourcequota is the resource quota controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/resourcequota, resource_quota_controller.go and
// resource_quota_monitor.go): it keeps every ResourceQuota's status, the numbers `kubectl describe
// quota` shows and the ResourceQuota admission plugin enforces.
//
// Read next: resourcequota.go (the component, what queues a quota), usage.go (one full recalculation),
// then the apiserver's admission side (apiserver/quota.go) and Kubernetes' "Resource Quotas" page.
//
// The two halves work together. Admission charges each create to status.used at once, with a
// compare-and-swap on the quota, so that no two creates take the last slot. Nothing in admission
// gives usage back: that is this controller's job. It recounts a quota from the objects themselves:
//
//  1. status.hard is copied from spec.hard (admission enforces status.hard, so a raised quota takes
//     effect when this controller has seen it);
//  2. status.used is recounted for every resource in spec.hard it knows how to count: pods,
//     requests.cpu/memory, limits.cpu/memory (cpu and memory are the older names of the requests),
//     and object counts count/<resource>.<group> of the kinds kubesim has (pods, services,
//     serviceaccounts, resourcequotas, deployments.apps, replicasets.apps, daemonsets.apps; services
//     and resourcequotas also under their older plain names);
//  3. the status is written only if it changed.
//
// A quota is recounted when it is created or its spec.hard changes, when an object it counts is
// created or deleted, when a pod stops counting (it reached Succeeded or Failed: finished pods free
// their share), and on the periodic resync (--resource-quota-sync-period, 5 minutes).
//
// What it simplifies: Kubernetes discovers every resource and counts any of them with a generic
// evaluator, keeps a separate priority queue for quotas whose usage is missing, and supports quota
// scopes (Terminating, BestEffort, PriorityClass); kubesim counts the kinds listed above, in one
// queue, without scopes. Kubernetes' replenishment does not react to creates (admission has already
// charged them); kubesim recounts on creates too, which costs a look at the cache and writes nothing
// when admission's count was right. What admission charged for a create that then failed (a name
// already taken) stays charged until the next resync, as in Kubernetes.
package resourcequota

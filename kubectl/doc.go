// Package kubectl is the learner's kubectl (k8s.io/kubectl, the kubectl command): a client like any
// other, which reaches the cluster only through the apiserver, under the credentials of its
// kubeconfig's user, and tells the trace what it sends and what it prints.
//
// Read next: k8s.io/kubectl/pkg/cmd (one package per command), pkg/polymorphichelpers (rollback.go,
// rollout_status.go, history.go) and pkg/describe (describe.go) in Kubernetes; "kubectl Quick
// Reference" and "Checking API access" in the Kubernetes documentation.
//
// How to use it:
//
//  1. Build it with the connection of a user, that user's name, a way to log in as another user, the
//     clock and the trace: New(Config{...}). A simulated cluster does this for its admin
//     (sim.Cluster.Kubectl, group system:masters, as kubeadm's admin.conf).
//  2. Call the command you would type: Apply(ctx, manifest), Get, List, Describe, Scale, SetImage,
//     RolloutStatus, RolloutHistory, RolloutUndo, Cordon, Uncordon, Drain, Delete, CanI.
//  3. As("alice") is kubectl with alice's kubeconfig; WithToken a kubeconfig with a forged token.
//
// Files, one command each: apply.go (apply, create, replace), get.go, describe.go and events.go,
// delete.go, scale.go, setimage.go, rollout.go (status, history), rollback.go (undo), nodes.go
// (cordon, uncordon, drain), auth.go (auth can-i).
//
// What it promises, as kubectl does:
//
//   - Every command is one or more ordinary API requests through the whole pipeline (authentication,
//     RBAC, admission, validation), so a command can fail at any gate, and the failure reads as
//     kubectl prints it: `Error from server (Forbidden): pods is forbidden: User "alice" cannot ...`.
//   - auth can-i creates a SelfSubjectAccessReview: the apiserver answers for whoever asks.
//   - rollout undo is client-side: kubectl copies the wanted revision's pod template from its
//     ReplicaSet into the Deployment; the Deployment controller does the rest.
//   - scale writes the scale subresource; drain evicts through the Eviction API.
//   - rollout status, rollout history and describe use kubectl's own words and layout.
//
// What it simplifies: no kubeconfig file, contexts or HTTP (the connection is given); no patches:
// apply, set image, cordon and rollout undo read the object and update it (retrying on conflict), which
// ends in the same object; no output formats (-o yaml, tables): commands return objects or the text
// kubectl prints; no logs (that needs the apiserver's pods/log, proxied to the kubelet).
package kubectl

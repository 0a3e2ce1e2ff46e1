// Package serviceaccount is the service account controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/serviceaccount, serviceaccounts_controller.go): it makes sure
// every active namespace has a ServiceAccount named "default".
//
// Read next: serviceaccount.go, then the apiserver's ServiceAccount admission plugin
// (apiserver/admission.go), which gives every pod serviceAccountName "default" and refuses a pod whose
// service account does not exist yet. That refusal is why a pod created in a brand-new namespace can
// fail for a moment: `error looking up service account demo/default: serviceaccount "default" not
// found`, until this controller has caught up.
//
// What it promises: soon after a namespace becomes Active it has a "default" ServiceAccount, and one
// deleted by hand comes back. Namespaces being deleted are left alone (admission would refuse the
// create anyway).
//
// What it simplifies: Kubernetes' controller takes a list of service accounts to ensure (only
// "default" in practice) and no longer creates token Secrets (since 1.24); kubesim has no tokens
// at all.
package serviceaccount

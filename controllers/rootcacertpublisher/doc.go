// Package rootcacertpublisher is kube-controller-manager's root CA certificate publisher
// (k8s.io/kubernetes/pkg/controller/certificates/rootcacertpublisher): it keeps a ConfigMap named
// kube-root-ca.crt in every namespace, holding the cluster's CA certificate under ca.crt.
//
// Read next: publisher.go, then the apiserver's ServiceAccount admission plugin
// (apiserver/admission.go), which gives every pod a kube-api-access-xxxxx volume whose ca.crt comes
// from this ConfigMap, and the kubelet (kubelet/config_sources.go), which will not start a pod whose
// volume cannot be set up: `MountVolume.SetUp failed for volume "kube-api-access-..." : configmap
// "kube-root-ca.crt" not found` until this controller has caught up with a new namespace.
//
// What it promises: soon after a namespace appears (or becomes Active again) it has kube-root-ca.crt
// with the cluster's CA and the description annotation; a deleted one comes back, an edited one is
// put back.
//
// What it simplifies: nothing of what it writes; the CA is kubesim's (a fixed one derived from the
// cluster's seed in step mode and tests, the serving CA of `kubesim serve`).
package rootcacertpublisher

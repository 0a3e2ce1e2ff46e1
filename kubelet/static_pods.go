// static_pods.go: static pods and their mirror pods. A kubelet also runs the pods whose manifests sit
// in its --pod-manifest-path (/etc/kubernetes/manifests): on a kubeadm control-plane node, etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler. The apiserver did not create them, so
// the kubelet shows each in the API as a mirror pod: a copy named <name>-<node>, annotated
// kubernetes.io/config.mirror, owned by the Node (NodeRestriction lets a kubelet create only those).
// That is what `kubectl -n kube-system get pods` lists for the control plane.
//
//	staticPod(manifest, node, path, seen)   the pod the file source makes of a manifest (applyDefaults in
//	                                        pkg/kubelet/config/common.go): name-node, nodeName, the
//	                                        config.hash/seen/source annotations, a NoExecute toleration
//	mirrorPod(static, node)                 the copy created in the API (pkg/kubelet/pod/mirror_client.go)
//	syncMirrorPods(ctx)                     create the mirror of each static pod that has none
//
// The mirror pods are checked when the kubelet starts, when its Node appears, when a mirror pod is
// deleted, and at every housekeeping (10s).
//
// Simplified: Kubernetes runs a static pod from its manifest whether or not the apiserver answers,
// and deleting its mirror pod leaves its containers running (the kubelet just makes a new mirror).
// kubesim's kubelet runs a static pod through its mirror pod, like any other pod bound to it: the
// containers start once the mirror exists, and deleting the mirror restarts them with the new one.
// Manifests are fixed at start (no file watching, no updates).
package kubelet

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// Where static pods come from, and the annotations the file source and the mirror client set.
const (
	PodManifestPath        = "/etc/kubernetes/manifests"
	ConfigMirrorAnnotation = "kubernetes.io/config.mirror"
	ConfigHashAnnotation   = "kubernetes.io/config.hash"
	ConfigSeenAnnotation   = "kubernetes.io/config.seen"
	ConfigSourceAnnotation = "kubernetes.io/config.source"
)

// static is one static pod and the file it came from.
type static struct {
	pod  *api.Pod
	path string
}

// staticPods reads the manifests (NodeConfig.StaticPods) as the file source would, each from
// PodManifestPath/<name>.yaml.
func staticPods(manifests []*api.Pod, node string, seen time.Time) []static {
	out := make([]static, 0, len(manifests))
	for _, m := range manifests {
		path := PodManifestPath + "/" + m.Name + ".yaml"
		out = append(out, static{staticPod(m, node, path, seen), path})
	}
	return out
}

// staticPod is the pod the kubelet's file source makes of one manifest read from path at seen.
func staticPod(manifest *api.Pod, node, path string, seen time.Time) *api.Pod {
	p := api.DeepCopy(manifest)
	// The UID is a hash of the manifest, the host and the file: the same file on the same node is
	// the same pod, across kubelet restarts.
	body, _ := json.Marshal(manifest)
	h := md5.New()
	h.Write(body)
	fmt.Fprintf(h, "host:%s", node)
	fmt.Fprintf(h, "file:%s", path)
	p.UID = hex.EncodeToString(h.Sum(nil))
	p.Name = manifest.Name + "-" + node
	if p.Namespace == "" {
		p.Namespace = api.NamespaceDefault
	}
	p.Spec.NodeName = node
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[ConfigHashAnnotation] = p.UID
	p.Annotations[ConfigSeenAnnotation] = seen.UTC().Format(time.RFC3339Nano)
	p.Annotations[ConfigSourceAnnotation] = "file"
	// So that a node problem never evicts it.
	p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute})
	p.Status.Phase = api.PodPending
	return p
}

// mirrorPod is the copy of a static pod the kubelet creates in the API: the config.mirror
// annotation holds the static pod's hash, and the Node owns it.
func mirrorPod(static *api.Pod, node *api.Node) *api.Pod {
	p := api.DeepCopy(static)
	p.UID, p.Status = "", api.PodStatus{}
	p.Annotations[ConfigMirrorAnnotation] = static.Annotations[ConfigHashAnnotation]
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: api.Ptr(true)}}
	return p
}

// markMirrorsDue asks the pod side to look at the mirror pods again.
func (k *Kubelet) markMirrorsDue() {
	if len(k.static) == 0 {
		return
	}
	k.mu.Lock()
	k.mirrorsDue = true
	k.mu.Unlock()
	k.nudge(sidePod)
}

func (k *Kubelet) takeMirrorsDue() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	due := k.mirrorsDue && !k.stopped
	k.mirrorsDue = false
	return due
}

// syncMirrorPods creates the mirror pod of each static pod that has none (nor one being deleted).
// It reports whether it wrote anything.
func (k *Kubelet) syncMirrorPods(ctx context.Context) bool {
	node, ok := k.nodes.Get(k.nodeName)
	if !ok {
		return false // not registered yet: the Node's arrival asks again
	}
	did := false
	for _, s := range k.static {
		key := s.pod.Key()
		if _, ok := k.pods.Get(key); ok {
			continue
		}
		created, err := client.For[api.Pod](k.client).Create(ctx, mirrorPod(s.pod, node))
		if apierrors.IsAlreadyExists(err) {
			continue // the informer has not seen it yet
		}
		if err != nil {
			k.record("mirror", "pods/"+key, "", "Failed creating a mirror pod for static pod %s (from %s): %v", key, s.path, err)
			continue
		}
		did = true
		k.record("mirror", "pods/"+key, created.ResourceVersion,
			"Creating a mirror pod for static pod %s (from %s): created, config.mirror %s", key, s.path, s.pod.UID)
	}
	return did
}

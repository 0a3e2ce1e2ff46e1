// noderestriction.go: the NodeRestriction admission plugin. The Node authorizer lets every kubelet
// create and delete pods, update pod status, evict pods and write Node objects, because a kubelet needs
// each of these for its own node; this plugin then narrows each one to the kubelet's own node, so that
// one compromised node cannot touch the rest of the cluster (plugin/pkg/admission/noderestriction in
// Kubernetes, with its wording).
//
// kubesim keeps the rules about pods and Node names. It leaves out the rules about objects it does not
// have (PVCs, CSINodes, ResourceSlices, CSRs, service account tokens) and the ban on a kubelet
// changing its own Node's taints: kubesim's kubelet adds the memory-pressure taint itself (see
// kubelet/node_status.go).
package apiserver

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/trace"
	"kubesim/wire"
)

// mirrorPodAnnotation marks a pod the kubelet created to mirror a static pod from its manifest
// directory: the only pods a kubelet may create.
const mirrorPodAnnotation = "kubernetes.io/config.mirror"

// nodeRestriction is the plugin. It only refuses, so it runs with the validating plugins; deletes and
// evictions, which carry no object, call admitNodeDelete.
type nodeRestriction struct{ s *Server }

func (nodeRestriction) Name() string { return "NodeRestriction" }

// nodeIdentity is the node a user speaks for (the Node authorizer's NodeIdentity): user
// system:node:<name> in group system:nodes.
func nodeIdentity(u User) (string, bool) {
	if !u.InGroup(GroupNodes) || !strings.HasPrefix(u.Name, "system:node:") {
		return "", false
	}
	return strings.TrimPrefix(u.Name, "system:node:"), true
}

func (p nodeRestriction) Validate(_ context.Context, a *admissionAttributes) error {
	node, ok := nodeIdentity(a.user)
	if !ok {
		return nil
	}
	if node == "" {
		return p.forbidden(a, fmt.Sprintf("could not determine node from user %q", a.user.Name))
	}
	switch a.res.Name {
	case "pods":
		switch a.req.Subresource {
		case "":
			if a.creating() {
				return p.podCreate(a, node, a.obj.(*api.Pod))
			}
			return p.forbidden(a, fmt.Sprintf("unexpected operation %q, node %q can only create and delete mirror pods", operation(a.req.Verb), node))
		case "status":
			if old, _ := a.old.(*api.Pod); old != nil && old.Spec.NodeName != node {
				return p.forbidden(a, fmt.Sprintf("node %q can only update pod status for pods with spec.nodeName set to itself", node))
			}
			return nil
		default:
			return p.forbidden(a, fmt.Sprintf("unexpected pod subresource %q, only 'status' and 'eviction' are allowed", a.req.Subresource))
		}
	case "leases":
		return p.lease(a, node)
	case "nodes":
		name := a.req.Name
		if a.obj != nil {
			name = a.obj.GetObjectMeta().Name
		}
		if name != node {
			return p.forbidden(a, fmt.Sprintf("node %q is not allowed to modify node %q", node, name))
		}
	}
	return nil
}

// lease allows a node only its own Lease in kube-node-lease.
func (p nodeRestriction) lease(a *admissionAttributes, node string) error {
	if a.req.Namespace != api.NamespaceNodeLease {
		return p.forbidden(a, fmt.Sprintf("can only access leases in the %q system namespace", api.NamespaceNodeLease))
	}
	name := a.req.Name
	if a.obj != nil {
		name = a.obj.GetObjectMeta().Name
	}
	if name != node {
		return p.forbidden(a, "can only access node lease with the same name as the requesting node")
	}
	return nil
}

// podCreate allows only a mirror pod bound to the node and owned by its Node.
func (p nodeRestriction) podCreate(a *admissionAttributes, node string, pod *api.Pod) error {
	if _, mirror := pod.Annotations[mirrorPodAnnotation]; !mirror {
		return p.forbidden(a, fmt.Sprintf("pod does not have %q annotation, node %q can only create mirror pods", mirrorPodAnnotation, node))
	}
	if pod.Spec.NodeName != node {
		return p.forbidden(a, fmt.Sprintf("node %q can only create pods with spec.nodeName set to itself", node))
	}
	switch len(pod.OwnerReferences) {
	case 0:
		return p.forbidden(a, fmt.Sprintf("node %q can only create pods with an owner reference set to itself", node))
	case 1:
	default:
		return p.forbidden(a, fmt.Sprintf("node %q can only create pods with a single owner reference set to itself", node))
	}
	owner := pod.OwnerReferences[0]
	if owner.APIVersion != "v1" || owner.Kind != "Node" || owner.Name != node {
		return p.forbidden(a, fmt.Sprintf("node %q can only create pods with an owner reference set to itself", node))
	}
	if owner.Controller == nil || !*owner.Controller {
		return p.forbidden(a, fmt.Sprintf("node %q can only create pods with a controller owner reference set to itself", node))
	}
	if owner.BlockOwnerDeletion != nil && *owner.BlockOwnerDeletion {
		return p.forbidden(a, fmt.Sprintf("node %q must not set blockOwnerDeletion on an owner reference", node))
	}
	nodeRes, _ := api.ResourceFor("nodes")
	n, _ := p.s.cache.get(nodeRes, node).(*api.Node)
	if n == nil {
		return apierrors.NewNotFound("nodes", node)
	}
	if owner.UID != n.UID {
		return p.forbidden(a, fmt.Sprintf("node %s UID mismatch: expected %s got %s", node, owner.UID, n.UID))
	}
	return nil
}

// admitNodeDelete is the plugin's rule for deletes and evictions: a node may delete or evict only the
// pods bound to it, and delete only its own Lease. Like Kubernetes' plugin it reads the pod from the
// apiserver's cache. It records a refusal in the
// trace as the admission chain does.
func (s *Server) admitNodeDelete(ctx context.Context, req *wire.Request, res *api.Resource, user User) error {
	node, ok := nodeIdentity(user)
	if !ok || res.Name != "pods" && res.Name != "leases" {
		return nil
	}
	p := nodeRestriction{s}
	a := &admissionAttributes{req: req, res: res, user: user}
	var pod *api.Pod
	if res.Name == "pods" {
		if err := s.fresh(ctx, "pods"); err != nil {
			return deadlineError(err)
		}
		pod, _ = s.cache.get(res, req.Namespace+"/"+req.Name).(*api.Pod)
	}
	var err error
	switch {
	case res.Name == "leases":
		err = p.lease(a, node)
	case pod == nil:
		err = apierrors.NewNotFound(res.GroupResource(), req.Name)
	case req.Subresource == "eviction" && pod.Spec.NodeName != node:
		err = p.forbidden(a, fmt.Sprintf("node %s can only evict pods with spec.nodeName set to itself", node))
	case req.Subresource == "" && pod.Spec.NodeName != node:
		err = p.forbidden(a, fmt.Sprintf("node %q can only delete pods with spec.nodeName set to itself", node))
	}
	if err != nil {
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "admit", Code: apierrors.CodeForError(err)}.
			Msgf("admission plugin %s rejected %s: %s", p.Name(), describe(req, res), err.Error()))
		return recorded{err}
	}
	return nil
}

// forbidden is admission.NewForbidden: `pods "web" is forbidden: <why>` (the resource, never the
// subresource).
func (nodeRestriction) forbidden(a *admissionAttributes, why string) error {
	name := a.req.Name
	if a.obj != nil && name == "" {
		name = a.obj.GetObjectMeta().Name
	}
	return apierrors.NewForbidden(a.res.GroupResource(), name, why)
}

// operation is an admission operation as Kubernetes names it in messages.
func operation(verb string) string {
	switch verb {
	case wire.VerbCreate:
		return "CREATE"
	case wire.VerbDelete:
		return "DELETE"
	}
	return "UPDATE"
}

// authz.go: gate 2, authorization ("may you do this?"). kube-apiserver asks its authorizers in order
// (here: Node, then RBAC, as --authorization-mode=Node,RBAC); the first that allows wins; if none does,
// the answer is 403 Forbidden with the sentence every Kubernetes user learns to read:
//
//	pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"
//
// RBAC is default-deny: a user may do only what some Role or ClusterRole bound to it (or to one of its
// groups) allows. Roles and bindings are objects like any other, read here from the watch cache.
package apiserver

import (
	"fmt"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/fields"
	"kubesim/api/labels"
	"kubesim/wire"
)

// attributes is what the authorizers judge (authorizer.Attributes in Kubernetes).
type attributes struct {
	user        User
	verb        string
	group       string
	resource    string
	subresource string
	namespace   string
	name        string
	// nodeSelector is the spec.nodeName a pod list or watch is pinned to, if any: the Node authorizer
	// lets a kubelet read only its own pods.
	nodeSelector string
	// quiet: nobody will read why RBAC allowed the request (no trace), so RBAC does not word it.
	quiet bool
}

func newAttributes(u User, req *wire.Request, res *api.Resource) attributes {
	a := attributes{user: u, verb: req.Verb, group: res.Group, resource: res.Name, subresource: req.Subresource,
		namespace: req.Namespace, name: req.Name}
	if req.Body != nil && req.Name == "" {
		a.name = req.Body.GetObjectMeta().Name
	}
	if (req.Verb == wire.VerbList || req.Verb == wire.VerbWatch) && req.FieldSelector != "" {
		if sel, err := fields.ParseSelector(req.FieldSelector); err == nil {
			// A list or watch of one object by name is authorized as that name, as Kubernetes'
			// RequestInfoFactory does: how a kubelet watches only its own Node.
			if name, ok := sel.RequiresExactMatch("metadata.name"); ok {
				a.name = name
			}
			if res.Name == "pods" {
				a.nodeSelector, _ = sel.RequiresExactMatch("spec.nodeName")
			}
		}
	}
	return a
}

// nodeAuthorizerReadsPods reports whether the Node authorizer's answer to a kubelet's request reads
// the pods bound to it (a pod, or the ConfigMaps, Secrets and claims its pods name): only then must
// the watch cache first hold every pod this apiserver wrote. A Lease renewal, an event, a status
// write does not wait for the cache to catch up with the cluster's pod writes.
func (a attributes) nodeAuthorizerReadsPods() bool {
	switch a.resource {
	case "pods":
		return a.subresource == "" && a.verb == wire.VerbGet
	case "configmaps", "secrets", "persistentvolumeclaims":
		return a.verb == wire.VerbGet
	}
	return false
}

func (a attributes) resourcePath() string {
	if a.subresource != "" {
		return a.resource + "/" + a.subresource
	}
	return a.resource
}

// forbidden builds the 403 exactly as Kubernetes words it.
func forbidden(a attributes, why string) error {
	scope := fmt.Sprintf("in the namespace %q", a.namespace)
	if a.namespace == "" {
		scope = "at the cluster scope"
	}
	msg := fmt.Sprintf("User %q cannot %s resource %q in API group %q %s", a.user.Name, a.verb, a.resourcePath(), a.group, scope)
	if why != "" {
		msg += ": " + why
	}
	// The object is named by its resource, never the subresource: `deployments.apps "nginx" is
	// forbidden: User "alice" cannot patch resource "deployments/scale" ...`, as Kubernetes words it.
	gr := a.resource
	if a.group != "" {
		gr += "." + a.group
	}
	return apierrors.NewForbidden(gr, a.name, msg)
}

// authorize returns whether the request is allowed and, either way, why (for the trace).
func (s *Server) authorize(a attributes) (bool, string) {
	if a.user.InGroup(GroupMasters) {
		// kube-apiserver always allows system:masters, before asking any authorizer: it is how a
		// fresh cluster's admin (and the apiserver's own loopback client) gets in before RBAC exists.
		return true, `allowed: group "system:masters" is privileged (bound to ClusterRole cluster-admin)`
	}
	var nodeWhy string
	if _, isNode := nodeIdentity(a.user); isNode {
		ok, why := s.authorizeNode(a)
		if ok {
			return true, why
		}
		// No opinion: RBAC is asked next, as with --authorization-mode=Node,RBAC. It grants a kubelet
		// only what every authenticated user holds (system:basic-user); a refusal keeps the Node
		// authorizer's reason.
		nodeWhy = why
	}
	if ok, why := s.authorizeRBAC(a); ok {
		return true, why
	}
	return false, nodeWhy
}

// authorizeRBAC looks for a binding of the user (or one of its groups) to a role with a matching rule:
// ClusterRoleBindings first (they apply everywhere), then RoleBindings in the request's namespace.
func (s *Server) authorizeRBAC(a attributes) (bool, string) {
	crbRes, _ := api.ResourceFor("clusterrolebindings")
	for _, o := range s.cache.snapshot(crbRes).objs {
		b := o.(*api.ClusterRoleBinding)
		if subj, ok := bindingSubject(b.Subjects, a.user, ""); ok {
			if rules := s.roleRules(b.RoleRef, ""); rulesAllow(rules, a) {
				if a.quiet {
					return true, ""
				}
				return true, fmt.Sprintf("RBAC: allowed by ClusterRoleBinding %q of ClusterRole %q to %s", b.Name, b.RoleRef.Name, subj)
			}
		}
	}
	if a.namespace == "" {
		return false, ""
	}
	rbRes, _ := api.ResourceFor("rolebindings")
	for _, o := range s.cache.snapshot(rbRes).namespace(a.namespace) {
		b := o.(*api.RoleBinding)
		if subj, ok := bindingSubject(b.Subjects, a.user, b.Namespace); ok {
			if rules := s.roleRules(b.RoleRef, b.Namespace); rulesAllow(rules, a) {
				if a.quiet {
					return true, ""
				}
				return true, fmt.Sprintf("RBAC: allowed by RoleBinding %q of %s %q to %s", b.Namespace+"/"+b.Name, b.RoleRef.Kind, b.RoleRef.Name, subj)
			}
		}
	}
	return false, ""
}

func (s *Server) roleRules(ref api.RoleRef, namespace string) []api.PolicyRule {
	switch ref.Kind {
	case "ClusterRole":
		res, _ := api.ResourceFor("clusterroles")
		if r, ok := s.cache.get(res, ref.Name).(*api.ClusterRole); ok {
			return r.Rules
		}
	case "Role":
		res, _ := api.ResourceFor("roles")
		if r, ok := s.cache.get(res, namespace+"/"+ref.Name).(*api.Role); ok {
			return r.Rules
		}
	}
	return nil
}

// bindingSubject reports which subject of a binding names the user: a subjectName, which words it as
// Kubernetes' audit annotations do (`User "alice"`, `Group "system:masters"`).
func bindingSubject(subjects []api.Subject, u User, bindingNamespace string) (subjectName, bool) {
	for _, sub := range subjects {
		switch sub.Kind {
		case "User":
			if sub.Name == u.Name {
				return subjectName{sub.Kind, sub.Name}, true
			}
		case "Group":
			if u.InGroup(sub.Name) {
				return subjectName{sub.Kind, sub.Name}, true
			}
		case "ServiceAccount":
			ns := sub.Namespace
			if ns == "" {
				ns = bindingNamespace
			}
			if isServiceAccount(u.Name, ns, sub.Name) {
				return subjectName{sub.Kind, ns + "/" + sub.Name}, true
			}
		}
	}
	return subjectName{}, false
}

// isServiceAccount says whether user is the user name of service account namespace/name's token,
// system:serviceaccount:<namespace>:<name> (compared in place: RBAC asks it of every binding to a
// service account on every request).
func isServiceAccount(user, namespace, name string) bool {
	rest, ok := strings.CutPrefix(user, "system:serviceaccount:")
	return ok && len(rest) == len(namespace)+1+len(name) &&
		rest[:len(namespace)] == namespace && rest[len(namespace)] == ':' && rest[len(namespace)+1:] == name
}

// subjectName is a binding's subject that named the user, worded only when printed.
type subjectName struct{ kind, name string }

func (n subjectName) String() string { return fmt.Sprintf("%s %q", n.kind, n.name) }

func rulesAllow(rules []api.PolicyRule, a attributes) bool {
	for _, r := range rules {
		if matches(r.Verbs, a.verb) && matches(r.APIGroups, a.group) && resourceMatches(r.Resources, a) &&
			(len(r.ResourceNames) == 0 || matches(r.ResourceNames, a.name) && a.name != "") {
			return true
		}
	}
	return false
}

func matches(list []string, v string) bool {
	for _, x := range list {
		if x == "*" || x == v {
			return true
		}
	}
	return false
}

func resourceMatches(list []string, a attributes) bool {
	want := a.resourcePath()
	for _, x := range list {
		if x == "*" || x == want || a.subresource != "" && x == "*/"+a.subresource {
			return true
		}
	}
	return false
}

// authorizeNode is the Node authorizer: a kubelet (user system:node:<name>, group system:nodes) may
// read its own Node, the pods bound to it, services and the like; it may write Node objects and Leases,
// create and delete (mirror) pods, update pod status and evict pods, which the NodeRestriction
// admission plugin (noderestriction.go) then narrows to its own node; and it may post events. This
// keeps one compromised node from touching the rest of the cluster. Denials carry the Node
// authorizer's reasons.
func (s *Server) authorizeNode(a attributes) (bool, string) {
	node := strings.TrimPrefix(a.user.Name, "system:node:")
	read := a.verb == wire.VerbGet || a.verb == wire.VerbList || a.verb == wire.VerbWatch
	write := a.verb == wire.VerbCreate || a.verb == wire.VerbUpdate || a.verb == wire.VerbPatch
	// An allowed request's reason is worded only when a trace will read it (attributes.quiet); a
	// kubelet's requests are mostly untraced, and many.
	// The arguments are strings, not any: boxed only when the reason is worded.
	allow := func(format string, args ...string) (bool, string) {
		if a.quiet {
			return true, ""
		}
		boxed := make([]any, len(args))
		for i, arg := range args {
			boxed[i] = arg
		}
		return true, "Node authorizer: " + fmt.Sprintf(format, boxed...)
	}
	deny := func(why string) (bool, string) { return false, why }
	switch a.resource {
	case "nodes":
		switch {
		case read && a.name == node:
			return allow("node %q may read its own Node", node)
		case read && a.name == "":
			return deny(fmt.Sprintf("node '%s' cannot read all nodes, only its own Node object", node))
		case read:
			return deny(fmt.Sprintf("node '%s' cannot read '%s', only its own Node object", node, a.name))
		case write && (a.subresource == "" || a.subresource == "status"):
			return allow("nodes may write Node objects (NodeRestriction limits them to their own)")
		}
	case "leases":
		if a.verb == wire.VerbGet || write || a.verb == wire.VerbDelete {
			return allow("nodes may keep a Lease (NodeRestriction limits them to their own)")
		}
	case "pods":
		switch {
		case a.subresource == "" && a.verb == wire.VerbGet:
			podRes, _ := api.ResourceFor("pods")
			if p, ok := s.cache.get(podRes, a.namespace+"/"+a.name).(*api.Pod); ok && p.Spec.NodeName == node {
				return allow("pod %s/%s is bound to node %q", a.namespace, a.name, node)
			}
			return deny(fmt.Sprintf("no relationship found between node '%s' and this object", node))
		case a.subresource == "" && (a.verb == wire.VerbList || a.verb == wire.VerbWatch) && a.nodeSelector == node:
			return allow("node %q may read the pods bound to it", node)
		case a.subresource == "" && (a.verb == wire.VerbList || a.verb == wire.VerbWatch):
			return deny("can only list/watch pods with spec.nodeName field selector")
		case a.subresource == "" && (a.verb == wire.VerbCreate || a.verb == wire.VerbDelete):
			return allow("nodes may create and delete mirror pods (NodeRestriction limits them to their own)")
		case a.subresource == "status" && (a.verb == wire.VerbUpdate || a.verb == wire.VerbPatch):
			return allow("nodes may report pod status (NodeRestriction limits them to their own pods)")
		case a.subresource == "eviction" && a.verb == wire.VerbCreate:
			return allow("nodes may evict pods (NodeRestriction limits them to their own pods)")
		}
	case "configmaps", "secrets":
		if a.verb == wire.VerbGet {
			if pod := s.podReferencing(node, a); pod != "" {
				return allow("pod %s on node %q refers to %s %s/%s", pod, node, a.resource, a.namespace, a.name)
			}
			return deny(fmt.Sprintf("no relationship found between node '%s' and this object", node))
		}
	case "persistentvolumeclaims":
		if a.verb == wire.VerbGet {
			return s.authorizeNodeClaim(node, a)
		}
	case "events":
		if write {
			return allow("nodes may post events")
		}
	case "services", "endpoints", "namespaces", "serviceaccounts":
		if read {
			return allow("nodes may read %s", a.resource)
		}
	}
	return deny("") // no opinion: RBAC decides
}

// podReferencing is the Node authorizer's graph, walked on demand: the first pod bound to node that
// names the ConfigMap or Secret being read ("" if none does). The object need not exist: a kubelet
// may ask for one its pod names, and learn that it is not there.
func (s *Server) podReferencing(node string, a attributes) string {
	kind := map[string]string{"configmaps": "ConfigMap", "secrets": "Secret"}[a.resource]
	podRes, _ := api.ResourceFor("pods")
	// The pod named is the first by name, for a trace that reads the same every run; an untraced
	// request only needs to know that there is one.
	pod := s.cache.firstOnNode(podRes, node, a.namespace, a.quiet, func(obj api.Object) bool {
		for _, ref := range api.ConfigReferences(&obj.(*api.Pod).Spec) {
			if ref.Kind == kind && ref.Name == a.name {
				return true
			}
		}
		return false
	})
	if pod == nil {
		return ""
	}
	return pod.GetObjectMeta().Name
}

func everythingSelection() selection {
	return selection{labels: everythingLabels(), fields: everythingFields()}
}

func everythingLabels() labels.Selector { return labels.Everything() }
func everythingFields() fields.Selector { return fields.Everything() }

// escalation.go: RBAC escalation prevention. Being allowed to write Roles and RoleBindings must not be
// a way to get more rights: kube-apiserver's RBAC registry refuses a Role or ClusterRole that grants
// what its author does not hold, and a binding to a role that does (pkg/registry/rbac in Kubernetes),
// with the sentence
//
//	user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:
//	{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}
//
// Two ways around it, as in Kubernetes: the "escalate" verb on roles or clusterroles lets a user write
// any role, and the "bind" verb on a role lets a user bind it; system:masters may do both.
package apiserver

import (
	"fmt"
	"sort"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
)

// confirmNoEscalation refuses a Role, ClusterRole, RoleBinding or ClusterRoleBinding that would give
// someone rules the user writing it does not hold. Other objects pass.
func (s *Server) confirmNoEscalation(res *api.Resource, user User, obj api.Object) error {
	if user.InGroup(GroupMasters) {
		return nil
	}
	m := obj.GetObjectMeta()
	var granted []api.PolicyRule
	switch o := obj.(type) {
	case *api.Role:
		if s.allowedTo(user, "escalate", "roles", m.Namespace, m.Name) {
			return nil
		}
		granted = o.Rules
	case *api.ClusterRole:
		if s.allowedTo(user, "escalate", "clusterroles", "", m.Name) {
			return nil
		}
		granted = o.Rules
	case *api.RoleBinding:
		rules, err := s.boundRules(user, o.RoleRef, m.Namespace)
		if err != nil || rules == nil {
			return err
		}
		granted = rules
	case *api.ClusterRoleBinding:
		rules, err := s.boundRules(user, o.RoleRef, "")
		if err != nil || rules == nil {
			return err
		}
		granted = rules
	default:
		return nil
	}
	missing := uncovered(s.rulesHeld(user, m.Namespace), granted)
	if len(missing) == 0 {
		return nil
	}
	return apierrors.NewForbidden(res.GroupResource(), m.Name, fmt.Sprintf(
		"user %q (groups=%q) is attempting to grant RBAC permissions not currently held:\n%s",
		user.Name, user.Groups, strings.Join(missing, "\n")))
}

// boundRules is what a binding to ref in namespace would grant, or nil when the user may bind ref
// anyway (the "bind" verb). A binding to a role that does not exist is NotFound.
func (s *Server) boundRules(user User, ref api.RoleRef, namespace string) ([]api.PolicyRule, error) {
	resource := "clusterroles"
	if ref.Kind == "Role" {
		resource = "roles"
	}
	if s.allowedTo(user, "bind", resource, namespace, ref.Name) {
		return nil, nil
	}
	res, _ := api.ResourceFor(resource)
	key := ref.Name
	if ref.Kind == "Role" {
		key = namespace + "/" + ref.Name
	}
	if s.cache.get(res, key) == nil {
		return nil, apierrors.NewNotFound(res.GroupResource(), ref.Name)
	}
	return append([]api.PolicyRule{}, s.roleRules(ref, namespace)...), nil
}

// allowedTo asks the authorizers whether the user may use an RBAC verb ("escalate", "bind") on a role.
func (s *Server) allowedTo(user User, verb, resource, namespace, name string) bool {
	ok, _ := s.authorize(attributes{user: user, verb: verb, group: api.RBACGroupName, resource: resource,
		namespace: namespace, name: name})
	return ok
}

// rulesHeld is every rule RBAC grants the user in a namespace ("" for cluster-wide rules only):
// ClusterRoleBindings, then the namespace's RoleBindings.
func (s *Server) rulesHeld(u User, namespace string) []api.PolicyRule {
	var rules []api.PolicyRule
	crbRes, _ := api.ResourceFor("clusterrolebindings")
	crbs, _ := s.cache.list(crbRes, everythingSelection())
	for _, o := range crbs {
		b := o.(*api.ClusterRoleBinding)
		if _, ok := bindingSubject(b.Subjects, u, ""); ok {
			rules = append(rules, s.roleRules(b.RoleRef, "")...)
		}
	}
	if namespace == "" {
		return rules
	}
	rbRes, _ := api.ResourceFor("rolebindings")
	sel := everythingSelection()
	sel.namespace = namespace
	rbs, _ := s.cache.list(rbRes, sel)
	for _, o := range rbs {
		b := o.(*api.RoleBinding)
		if _, ok := bindingSubject(b.Subjects, u, b.Namespace); ok {
			rules = append(rules, s.roleRules(b.RoleRef, b.Namespace)...)
		}
	}
	return rules
}

// uncovered breaks the wanted rules into single (group, resource, verb, name) grants, keeps those no
// held rule covers, and describes them as Kubernetes does: one line per group, resource and name, the
// verbs together, the lines sorted.
func uncovered(held, wanted []api.PolicyRule) []string {
	type target struct{ group, resource, name string }
	verbs := map[target][]string{}
	var order []target
	for _, w := range wanted {
		names := w.ResourceNames
		if len(names) == 0 {
			names = []string{""}
		}
		for _, g := range w.APIGroups {
			for _, r := range w.Resources {
				for _, v := range w.Verbs {
					for _, n := range names {
						if covered(held, g, r, v, n) {
							continue
						}
						t := target{g, r, n}
						if _, seen := verbs[t]; !seen {
							order = append(order, t)
						}
						verbs[t] = append(verbs[t], v)
					}
				}
			}
		}
	}
	lines := make([]string, 0, len(order))
	for _, t := range order {
		line := fmt.Sprintf("{APIGroups:%q, Resources:%q, ", []string{t.group}, []string{t.resource})
		if t.name != "" {
			line += fmt.Sprintf("ResourceNames:%q, ", []string{t.name})
		}
		lines = append(lines, line+fmt.Sprintf("Verbs:%q}", verbs[t]))
	}
	sort.Strings(lines)
	return lines
}

// covered reports whether some held rule grants verb on group/resource (named name, "" for any).
func covered(held []api.PolicyRule, group, resource, verb, name string) bool {
	for _, h := range held {
		if !matches(h.Verbs, verb) || !matches(h.APIGroups, group) || !coversResource(h.Resources, resource) {
			continue
		}
		if len(h.ResourceNames) == 0 || name != "" && contains(h.ResourceNames, name) {
			return true
		}
	}
	return false
}

// coversResource: "*" covers every resource, "*/status" every status subresource.
func coversResource(held []string, resource string) bool {
	if matches(held, resource) {
		return true
	}
	_, sub, ok := strings.Cut(resource, "/")
	return ok && contains(held, "*/"+sub)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

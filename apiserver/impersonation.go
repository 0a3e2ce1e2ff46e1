// impersonation.go: acting as someone else (`kubectl auth can-i list pods --as alice`, `kubectl get
// pods --as alice --as-group devs`), as kube-apiserver's impersonation filter does between
// authentication and authorization. The user the credential proves must be allowed the verb
// "impersonate" on each thing it asks to become: the user (resource users, or serviceaccounts in the
// account's namespace for system:serviceaccount:<namespace>:<name>) and each group (groups) in the
// core API group, each extra value (userextras/<key>) and the uid (uids) in authentication.k8s.io.
// The first refusal is a 403 naming it (`users "alice" is forbidden: User "bob" cannot impersonate
// resource "users" in API group "" at the cluster scope`); once all are allowed, every later gate sees
// the user asked for, never the one who asked: that user's own groups are not looked up, only those
// asked for, system:authenticated (system:unauthenticated for system:anonymous) and a service
// account's fixed groups count.
//
// kubesim simplification: a User has a name and groups only, so an impersonated uid and extras are
// authorized as Kubernetes authorizes them and then not carried.
package apiserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/validation"
	"kubesim/trace"
	"kubesim/wire"
)

// User names and groups impersonation treats specially.
const (
	UserAnonymous        = "system:anonymous"
	GroupUnauthenticated = "system:unauthenticated"
)

// Impersonate checks that requestor may act as imp and returns the user it then acts as: the HTTP
// front asks it for every request that carries impersonation headers, before it serves any path (what
// names the request in the trace: "GET /api/v1/namespaces/default/pods"). A refusal goes into the
// trace; an allowed switch is told by Do, which checks a resource request's impersonation again.
func (s *Server) Impersonate(ctx context.Context, requestor User, imp *wire.Impersonation, what string) (User, error) {
	if err := s.fresh(ctx, "clusterrolebindings", "clusterroles", "rolebindings", "roles"); err != nil {
		return User{}, deadlineError(fmt.Errorf("waiting for the authorization cache: %w", err))
	}
	u, denied, err := s.actAs(requestor, imp, !s.trace.Enabled())
	if denied != nil && s.trace.Enabled() {
		s.trace.Record(impersonationRefused(requestor, what, imp, err))
	}
	return u, err
}

// impersonationRefused is the trace line of a refused impersonation; what names the request.
func impersonationRefused(requestor User, what string, imp *wire.Impersonation, err error) trace.Event {
	return trace.Event{Component: "kube-apiserver", Actor: requestor.Name, Action: "impersonate", Code: 403}.
		Msgf("%s, impersonating %s -> 403 %s", what, describeImpersonation(imp), err.Error())
}

// impersonate is Impersonate inside Do: the refusal or the switch goes into the trace.
func (s *Server) impersonate(req *wire.Request, res *api.Resource, requestor User) (User, error) {
	u, denied, err := s.actAs(requestor, req.Impersonate, !s.traced(req))
	switch {
	case denied != nil:
		s.record(req, res, impersonationRefused(requestor, describe(req, res), req.Impersonate, err))
	case err == nil && s.trace != nil:
		s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: requestor.Name, Action: "impersonate"}.
			Msgf("%s: %s acts as %s, allowed to impersonate it", describe(req, res), requestor, u))
	}
	return u, err
}

// actAs authorizes each part of imp for requestor, in kube-apiserver's order (the user, the groups,
// the extras, the uid), and builds the user. denied is the check that failed, if one did.
func (s *Server) actAs(requestor User, imp *wire.Impersonation, quiet bool) (User, *attributes, error) {
	if imp.User == "" {
		if len(imp.Groups) > 0 || len(imp.Extra) > 0 || imp.UID != "" {
			return User{}, nil, apierrors.NewInternalError(fmt.Errorf("requested %s without impersonating a user", describeImpersonation(imp)))
		}
		return requestor, nil, nil
	}
	// Each thing asked for is a question to the authorizer, asked in that order; the first refused
	// answers the request.
	ask := func(group, resource, subresource, namespace, name string) attributes {
		return attributes{user: requestor, verb: "impersonate", group: group, resource: resource, subresource: subresource,
			namespace: namespace, name: name, quiet: quiet}
	}
	var asks []attributes
	u := User{Name: imp.User, Groups: slices.Clone(imp.Groups)}
	if ns, name, ok := splitServiceAccount(imp.User); ok {
		asks = append(asks, ask("", "serviceaccounts", "", ns, name))
		if len(imp.Groups) == 0 {
			u.Groups = []string{GroupServiceAccounts, GroupServiceAccounts + ":" + ns}
		}
	} else {
		asks = append(asks, ask("", "users", "", "", imp.User))
	}
	for _, g := range imp.Groups {
		asks = append(asks, ask("", "groups", "", "", g))
	}
	for _, k := range slices.Sorted(maps.Keys(imp.Extra)) {
		for _, v := range imp.Extra[k] {
			asks = append(asks, ask(api.AuthenticationGroupName, "userextras", k, "", v))
		}
	}
	if imp.UID != "" {
		asks = append(asks, ask(api.AuthenticationGroupName, "uids", "", "", imp.UID))
	}
	for _, a := range asks {
		if ok, _ := s.authorize(a); !ok {
			return User{}, &a, forbidden(a, "")
		}
	}
	switch {
	case u.Name == UserAnonymous && !u.InGroup(GroupUnauthenticated):
		u.Groups = append(u.Groups, GroupUnauthenticated)
	case u.Name != UserAnonymous && !u.InGroup(GroupAuthenticated) && !u.InGroup(GroupUnauthenticated):
		u.Groups = append(u.Groups, GroupAuthenticated)
	}
	return u, nil, nil
}

// splitServiceAccount splits system:serviceaccount:<namespace>:<name> as Kubernetes does: exactly two
// parts after the prefix, a valid namespace name and a valid service account name.
func splitServiceAccount(user string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(user, "system:serviceaccount:")
	if !found {
		return "", "", false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 2 || len(validation.IsDNS1123Label(parts[0])) > 0 || len(validation.IsDNS1123Subdomain(parts[1])) > 0 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// describeImpersonation words what a request asked to act as, for the trace and errors: `user
// "alice", groups ["devs"]`.
func describeImpersonation(imp *wire.Impersonation) string {
	var parts []string
	if imp.User != "" {
		parts = append(parts, fmt.Sprintf("user %q", imp.User))
	}
	if len(imp.Groups) > 0 {
		parts = append(parts, fmt.Sprintf("groups %q", imp.Groups))
	}
	if imp.UID != "" {
		parts = append(parts, fmt.Sprintf("uid %q", imp.UID))
	}
	if len(imp.Extra) > 0 {
		parts = append(parts, fmt.Sprintf("extras %v", imp.Extra))
	}
	return strings.Join(parts, ", ")
}

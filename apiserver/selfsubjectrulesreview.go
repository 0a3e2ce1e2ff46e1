// selfsubjectrulesreview.go: the selfsubjectrulesreviews resource of authorization.k8s.io/v1, how a
// client asks "what may I do in this namespace?" (`kubectl auth can-i --list -n NS`). Like a
// SelfSubjectAccessReview it passes authentication and authorization (system:basic-user lets every
// authenticated user create one), is answered for the user who sent it, and is never stored.
//
// The answer is what each authorizer can enumerate, as kube-apiserver's rule resolvers do
// (k8s.io/kubernetes/pkg/registry/authorization/selfsubjectrulesreview): RBAC lists the rules of
// every ClusterRoleBinding and of the namespace's RoleBindings that name the user or one of its
// groups, in that order, repeats included (kubectl compacts them); the Node authorizer cannot list
// what a kubelet may do, so a node's answer is marked incomplete with its reason. system:masters is
// privileged before any authorizer is asked, so its answer is what RBAC's cluster-admin binding
// grants it, as in Kubernetes.
package apiserver

import (
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/trace"
	"kubesim/wire"
)

// selfSubjectRulesReviews is the resource's name; it is served for create only.
const selfSubjectRulesReviews = "selfsubjectrulesreviews"

// reviewRules answers a SelfSubjectRulesReview for user.
func (s *Server) reviewRules(req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	review, ok := req.Body.(*api.SelfSubjectRulesReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SelfSubjectRulesReview: %T", req.Body))
	}
	ns := review.Spec.Namespace
	if ns == "" {
		return nil, apierrors.NewBadRequest("no namespace on request")
	}
	status := api.SubjectRulesReviewStatus{ResourceRules: []api.ResourceRule{}, NonResourceRules: []api.NonResourceRule{}}
	if _, isNode := nodeIdentity(user); isNode {
		status.Incomplete = true
		status.EvaluationError = "node authorizer does not support user rule resolution"
	}
	for _, r := range s.rulesHeld(user, ns) {
		if len(r.NonResourceURLs) > 0 {
			status.NonResourceRules = append(status.NonResourceRules, api.NonResourceRule{Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
			continue
		}
		status.ResourceRules = append(status.ResourceRules, api.ResourceRule{Verbs: r.Verbs, APIGroups: r.APIGroups,
			Resources: r.Resources, ResourceNames: r.ResourceNames})
	}
	out := api.DeepCopy(review)
	out.Status = status
	s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "review", Detail: true}.
		Msgf("%s: what may %s do in namespace %s? %d resource rules, %d non-resource rules (answered, not stored)",
			describe(req, res), user.Name, ns, len(status.ResourceRules), len(status.NonResourceRules)))
	return &wire.Response{Object: out}, nil
}

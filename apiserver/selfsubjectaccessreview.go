// selfsubjectaccessreview.go: the selfsubjectaccessreviews resource of authorization.k8s.io/v1, how a
// client asks "may I?" (`kubectl auth can-i list pods`). The request passes authentication and
// authorization like any other (every authenticated user may create one: the bootstrap ClusterRole
// system:basic-user allows it); the apiserver then runs its authorizers on the attributes in the spec,
// for the user who sent it, and returns the review with status filled in. Nothing is stored: only
// create is served, and no review ever reaches etcd.
//
// kubesim simplification: reviews skip admission (Kubernetes runs the admission chain on them, and no
// built-in plugin changes them).
package apiserver

import (
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/field"
	"kubesim/trace"
	"kubesim/wire"
)

// selfSubjectAccessReviews is the resource's name; it is served for create only.
const selfSubjectAccessReviews = "selfsubjectaccessreviews"

// reviewSelf answers a SelfSubjectAccessReview for user. The caller has already waited for the
// authorization cache to hold every RBAC write this apiserver made, as for any request.
func (s *Server) reviewSelf(req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	review, ok := req.Body.(*api.SelfSubjectAccessReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("%s needs a SelfSubjectAccessReview body, not %T", res.GroupResource(), req.Body))
	}
	ra := review.Spec.ResourceAttributes
	if ra == nil {
		return nil, apierrors.NewInvalid(res.Kind+"."+res.Group, "", field.ErrorList{
			field.Invalid(field.NewPath("spec", "resourceAttributes"), nil, "exactly one of nonResourceAttributes or resourceAttributes must be specified")})
	}
	allowed, why := s.authorize(attributes{user: user, verb: ra.Verb, group: ra.Group, resource: ra.Resource,
		subresource: ra.Subresource, namespace: ra.Namespace, name: ra.Name})
	out := api.DeepCopy(review)
	out.Status = api.SubjectAccessReviewStatus{Allowed: allowed, Reason: why}
	answer := "no"
	if allowed {
		answer = "yes"
	}
	s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "review", Detail: true}.
		Msgf("%s: may %s %s %s? %s (answered, not stored)", describe(req, res), user.Name, ra.Verb, reviewedResource(ra), answer))
	return &wire.Response{Object: out}, nil
}

// reviewedResource names the resource a review asks about, as `kubectl auth can-i` spells it.
func reviewedResource(ra *api.ResourceAttributes) string {
	s := ra.Resource
	if ra.Group != "" {
		s += "." + ra.Group
	}
	if ra.Subresource != "" {
		s += "/" + ra.Subresource
	}
	if ra.Name != "" {
		s += " " + ra.Name
	}
	if ra.Namespace != "" {
		s += " -n " + ra.Namespace
	}
	return s
}

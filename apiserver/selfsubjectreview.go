// selfsubjectreview.go: the selfsubjectreviews resource of authentication.k8s.io/v1, how a client
// asks "who am I?" (`kubectl auth whoami`, GA since Kubernetes 1.28). It passes authentication and
// authorization like any request (system:basic-user lets every authenticated user create one), is
// answered with the user the request runs as (after impersonation, the user acted as: `kubectl auth
// whoami --as alice --as-group devs` shows what the apiserver will see), and is never stored.
package apiserver

import (
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/trace"
	"kubesim/wire"
)

// selfSubjectReviews is the resource's name; it is served for create only.
const selfSubjectReviews = "selfsubjectreviews"

// reviewSelfSubject answers a SelfSubjectReview for user.
func (s *Server) reviewSelfSubject(req *wire.Request, res *api.Resource, user User) (*wire.Response, error) {
	review, ok := req.Body.(*api.SelfSubjectReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SelfSubjectReview: %T", req.Body))
	}
	out := api.DeepCopy(review)
	out.Status.UserInfo = api.UserInfo{Username: user.Name, Groups: append([]string(nil), user.Groups...)}
	out.CreationTimestamp = api.NewTime(s.clock.Now())
	s.record(req, res, trace.Event{Component: "kube-apiserver", Actor: user.Name, Action: "review", Detail: true}.
		Msgf("%s: who am I? %s (answered, not stored)", describe(req, res), user))
	return &wire.Response{Object: out}, nil
}

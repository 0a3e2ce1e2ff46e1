// auth.go: `kubectl auth can-i VERB RESOURCE -n NAMESPACE`. kubectl does not decide anything itself:
// it creates a SelfSubjectAccessReview (authorization.k8s.io/v1), which passes authentication and
// authorization like any request, and the apiserver fills in the answer for whoever sent it. So
// `--as alice` (here: Impersonating("alice")) asks as alice, and the answer is alice's; As("alice")
// asks with alice's own kubeconfig.
//
//	CanI(verb, resource, namespace) bool
package kubectl

import (
	"context"

	"kubesim/api"
	"kubesim/client"
)

// CanI asks whether kubectl's user may do verb on resource in namespace, and records the answer
// as `kubectl auth can-i` prints it (yes or no, and the rule that decided). An error (an unknown
// resource, a rejected credential) is reported and answers no.
func (k *Kubectl) CanI(verb, resource, namespace string) bool {
	res, ok := api.ResourceFor(resource)
	if !ok {
		k.Report(unknownResource(resource))
		return false
	}
	if !res.Namespaced {
		namespace = ""
	}
	review := &api.SelfSubjectAccessReview{Spec: api.SelfSubjectAccessReviewSpec{ResourceAttributes: &api.ResourceAttributes{
		Namespace: namespace, Verb: verb, Group: res.Group, Resource: res.Name}}}
	// kubectl's auth can-i sends its review with context.TODO(): the command has no deadline of its own.
	got, err := client.For[api.SelfSubjectAccessReview](k.client).Create(context.TODO(), review)
	if err != nil {
		k.Report(err)
		return false
	}
	answer := "no"
	if got.Status.Allowed {
		answer = "yes"
	}
	if got.Status.Reason != "" {
		answer += " (" + got.Status.Reason + ")"
	}
	if k.as != "" {
		k.say("auth can-i", "", "kubectl auth can-i %s %s -n %s%s -> %s", verb, resource, namespace, k.as, answer)
	} else {
		k.say("auth can-i", "", "kubectl auth can-i %s %s -n %s -> %s", verb, resource, namespace, answer)
	}
	return got.Status.Allowed
}

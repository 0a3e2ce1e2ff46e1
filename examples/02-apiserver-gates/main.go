// Example 02: the apiserver's gates. Every request, from kubectl or from a controller, passes the same
// gates in kube-apiserver: authentication (401), authorization by RBAC (403), admission, validation
// (422) and the write to etcd, where optimistic concurrency turns a stale write into 409 Conflict.
// Article 1, section 2.1 ("kube-apiserver 的四道关卡"); article 2, section 6.1.
//
//	go run ./examples/02-apiserver-gates
package main

import (
	"io"
	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/examples/internal/story"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error {
	// etcd and the apiserver are enough: no controller, scheduler or node is involved in a gate.
	return story.Run(w, sim.Config{}, tell)
}

func tell(s *story.Story) error {
	k := s.Cluster.Kubectl
	// refused prints a gate's answer as kubectl shows it: the HTTP status code and the message.
	refused := func(gate string, err error) { s.Say("%-24s %d %v", gate+":", apierrors.CodeForError(err), err) }

	// A token the apiserver does not know is stopped at the first gate: authentication. Nothing is
	// read or written; the answer is 401 Unauthorized.
	_, err := k.WithToken("not-a-real-token", "unknown").List(s.Ctx, "pods", "default", "")
	refused("gate 1, authentication", err)

	// alice is authenticated but has no RoleBinding. RBAC denies by default: 403 Forbidden, with the
	// sentence a real cluster prints.
	_, err = k.As("alice").List(s.Ctx, "pods", "default", "")
	refused("gate 2, authorization", err)

	// A Deployment with a negative replica count passes authentication and authorization (the admin
	// may do anything), and admission; validation rejects it with 422 and names the field.
	bad := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "broken", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Ptr(int32(-1)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}}}
	_, err = k.Create(s.Ctx, bad)
	refused("gate 4, validation", err)

	// A valid Deployment passes every gate and is stored; its resourceVersion is etcd's revision.
	objs, err := k.Apply(s.Ctx, []byte(manifests.NginxDeployment))
	if err != nil {
		return err
	}
	first := objs[0].(*api.Deployment)
	s.Say("%-24s 201 deployment nginx stored at resourceVersion %s", "every gate passed:", first.ResourceVersion)

	// Two writers read the same version. The first update wins and moves the resourceVersion on; the
	// second, still carrying the old one, is refused with 409 Conflict: read again, then retry.
	one, two := api.DeepCopy(first), api.DeepCopy(first)
	one.Spec.Replicas = api.Ptr(int32(4))
	if _, err := k.Update(s.Ctx, one); err != nil {
		return err
	}
	two.Spec.Replicas = api.Ptr(int32(5))
	_, err = k.Update(s.Ctx, two)
	refused("persist, concurrency", err)
	return nil
}

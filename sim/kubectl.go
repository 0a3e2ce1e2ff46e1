// kubectl.go: the learner's hands. Kubectl does what the kubectl commands of the articles do (apply a
// manifest, create, get, scale, set image, delete, auth can-i), through the same apiserver pipeline as
// every component, and tells the trace what it sent and, on failure, prints what kubectl prints:
// `Error from server (Forbidden): pods is forbidden: ...`.
package sim

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/trace"
)

// Kubectl is kubectl bound to one identity.
type Kubectl struct {
	c      *Cluster
	client *client.Client
	user   string
	groups []string
}

func newKubectl(c *Cluster, cl *client.Client) *Kubectl {
	return &Kubectl{c: c, client: cl, user: "kubernetes-admin", groups: []string{apiserver.GroupMasters}}
}

// As returns kubectl running under another user's credentials (a kubeconfig with another user).
func (k *Kubectl) As(user string, groups ...string) *Kubectl {
	return &Kubectl{c: k.c, client: k.c.Client(user, "kubectl", groups...), user: user, groups: groups}
}

// WithToken returns kubectl presenting an arbitrary bearer token (a forged or expired kubeconfig).
func (k *Kubectl) WithToken(token, user string) *Kubectl {
	return &Kubectl{c: k.c, client: k.client.WithToken(token), user: user}
}

// Client is the underlying typed-client connection.
func (k *Kubectl) Client() *client.Client { return k.client }

func (k *Kubectl) say(action, object, format string, args ...any) {
	k.c.Trace.Record(trace.Event{Component: "kubectl", Actor: k.user, Action: action, Object: object}.Msgf(format, args...))
}

// report records kubectl's answer to a failed request, worded as kubectl prints it.
func (k *Kubectl) report(err error) error {
	if err == nil {
		return nil
	}
	reason := apierrors.ReasonForError(err)
	msg := err.Error()
	if reason != "" {
		msg = fmt.Sprintf("Error from server (%s): %s", reason, err.Error())
	} else {
		msg = "error: " + msg
	}
	k.c.Trace.Record(trace.Event{Component: "kubectl", Actor: k.user, Action: "error", Code: apierrors.CodeForError(err)}.Msgf("%s", msg))
	return err
}

// Apply decodes a manifest (YAML or JSON, one or more documents, strictly: an unknown field is an
// error naming its path) and creates each object, or updates it if it exists (`kubectl apply -f`).
func (k *Kubectl) Apply(ctx context.Context, manifest []byte) ([]api.Object, error) {
	objs, err := api.Decode(manifest)
	if err != nil {
		k.say("apply", "", "kubectl apply -f: %v", err)
		return nil, k.report(apierrors.NewBadRequest(err.Error()))
	}
	var out []api.Object
	for _, obj := range objs {
		got, err := k.apply(ctx, obj)
		if err != nil {
			return out, err
		}
		out = append(out, got)
	}
	return out, nil
}

func (k *Kubectl) apply(ctx context.Context, obj api.Object) (api.Object, error) {
	res, _ := api.ResourceOf(obj)
	m := obj.GetObjectMeta()
	if res.Namespaced && m.Namespace == "" {
		m.Namespace = "default"
	}
	k.say("request", objectPath(res.Name, m.Namespace, m.Name), "GET %s %s (kubectl apply: does it exist yet?)", res.GroupResource(), strings.TrimPrefix(m.Namespace+"/"+m.Name, "/"))
	existing, err := k.client.Do(ctx, &apiserver.Request{Verb: apiserver.VerbGet, Resource: res.Name, Namespace: m.Namespace, Name: m.Name})
	if err == nil {
		upd := api.DeepCopy(obj)
		upd.GetObjectMeta().ResourceVersion = existing.Object.GetObjectMeta().ResourceVersion
		return k.Update(ctx, upd)
	}
	if !apierrors.IsNotFound(err) {
		return nil, k.report(err)
	}
	return k.Create(ctx, obj)
}

// Create sends POST for obj.
func (k *Kubectl) Create(ctx context.Context, obj api.Object) (api.Object, error) {
	return k.write(ctx, apiserver.VerbCreate, obj, false)
}

// CreateDryRun sends POST ?dryRun=All: every gate runs, nothing is stored.
func (k *Kubectl) CreateDryRun(ctx context.Context, obj api.Object) (api.Object, error) {
	return k.write(ctx, apiserver.VerbCreate, obj, true)
}

// Update sends PUT for obj, with whatever resourceVersion obj carries.
func (k *Kubectl) Update(ctx context.Context, obj api.Object) (api.Object, error) {
	return k.write(ctx, apiserver.VerbUpdate, obj, false)
}

func (k *Kubectl) write(ctx context.Context, verb string, obj api.Object, dryRun bool) (api.Object, error) {
	res, ok := api.ResourceOf(obj)
	if !ok {
		return nil, k.report(apierrors.NewBadRequest(fmt.Sprintf("%T is not a kind kubesim serves", obj)))
	}
	m := obj.GetObjectMeta()
	ns := m.Namespace
	if res.Namespaced && ns == "" {
		ns = "default"
	}
	method := map[string]string{apiserver.VerbCreate: "POST", apiserver.VerbUpdate: "PUT"}[verb]
	what := res.GroupResource() + " " + strings.TrimPrefix(ns+"/"+m.Name, "/")
	if dryRun {
		what += " ?dryRun=All"
	}
	if sum := summary(obj); sum != "" {
		what += " (" + sum + ")"
	}
	k.say("request", objectPath(res.Name, ns, m.Name), "%s %s", method, what)
	resp, err := k.client.Do(ctx, &apiserver.Request{Verb: verb, Resource: res.Name, Namespace: ns, Name: m.Name, Body: obj, DryRun: dryRun})
	if err != nil {
		return nil, k.report(err)
	}
	return resp.Object, nil
}

// Get reads one object (`kubectl get RESOURCE NAME`).
func (k *Kubectl) Get(ctx context.Context, resource, namespace, name string) (api.Object, error) {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return nil, k.report(fmt.Errorf("the server doesn't have a resource type %q", resource))
	}
	k.say("request", objectPath(res.Name, namespace, name), "GET %s %s", res.GroupResource(), strings.TrimPrefix(namespace+"/"+name, "/"))
	resp, err := k.client.Do(ctx, &apiserver.Request{Verb: apiserver.VerbGet, Resource: res.Name, Namespace: namespace, Name: name})
	if err != nil {
		return nil, k.report(err)
	}
	return resp.Object, nil
}

// List lists objects (`kubectl get RESOURCE -l SELECTOR`).
func (k *Kubectl) List(ctx context.Context, resource, namespace, labelSelector string) ([]api.Object, error) {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return nil, k.report(fmt.Errorf("the server doesn't have a resource type %q", resource))
	}
	what := res.GroupResource()
	if namespace != "" {
		what += " -n " + namespace
	}
	if labelSelector != "" {
		what += " -l " + labelSelector
	}
	k.say("request", objectPath(res.Name, namespace, ""), "LIST %s", what)
	resp, err := k.client.Do(ctx, &apiserver.Request{Verb: apiserver.VerbList, Resource: res.Name, Namespace: namespace, LabelSelector: labelSelector})
	if err != nil {
		return nil, k.report(err)
	}
	return resp.List.Items, nil
}

// Delete deletes one object (`kubectl delete RESOURCE NAME`).
func (k *Kubectl) Delete(ctx context.Context, resource, namespace, name string, opts client.DeleteOptions) error {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return k.report(fmt.Errorf("the server doesn't have a resource type %q", resource))
	}
	k.say("request", objectPath(res.Name, namespace, name), "DELETE %s %s", res.GroupResource(), strings.TrimPrefix(namespace+"/"+name, "/"))
	_, err := k.client.Do(ctx, &apiserver.Request{Verb: apiserver.VerbDelete, Resource: res.Name, Namespace: namespace, Name: name,
		GracePeriodSeconds: opts.GracePeriodSeconds, PropagationPolicy: opts.PropagationPolicy})
	return k.report(err)
}

// Scale sets replicas through the scale subresource (`kubectl scale deployment/NAME --replicas=N`).
func (k *Kubectl) Scale(ctx context.Context, resource, namespace, name string, replicas int32) error {
	res, ok := api.ResourceFor(resource)
	if !ok {
		return k.report(fmt.Errorf("the server doesn't have a resource type %q", resource))
	}
	k.say("request", objectPath(res.Name, namespace, name), "PUT %s/scale %s/%s (replicas %d)", res.GroupResource(), namespace, name, replicas)
	sc, err := k.client.GetScale(ctx, res.Name, namespace, name)
	if err != nil {
		return k.report(err)
	}
	sc.Spec.Replicas = replicas
	_, err = k.client.UpdateScale(ctx, res.Name, sc)
	return k.report(err)
}

// CanI answers `kubectl auth can-i VERB RESOURCE -n NAMESPACE` for kubectl's user.
func (k *Kubectl) CanI(verb, resource, namespace string) bool {
	ok, why := k.c.APIServer.CanI(apiserver.User{Name: k.user, Groups: k.groups}, verb, resource, namespace, "")
	answer := "no"
	if ok {
		answer = "yes"
	}
	if why != "" {
		answer += " (" + why + ")"
	}
	k.say("auth can-i", "", "kubectl auth can-i %s %s -n %s -> %s", verb, resource, namespace, answer)
	return ok
}

// summary is the one-line gist of an object for kubectl's trace line.
func summary(obj api.Object) string {
	switch o := obj.(type) {
	case *api.Deployment:
		return fmt.Sprintf("replicas %s, image %s", replicasString(o.Spec.Replicas), images(o.Spec.Template.Spec.Containers))
	case *api.ReplicaSet:
		return fmt.Sprintf("replicas %s, image %s", replicasString(o.Spec.Replicas), images(o.Spec.Template.Spec.Containers))
	case *api.Pod:
		return "image " + images(o.Spec.Containers)
	}
	return ""
}

func replicasString(r *int32) string {
	if r == nil {
		return "unset"
	}
	return fmt.Sprint(*r)
}

func images(cs []api.Container) string {
	var out []string
	for _, c := range cs {
		if c.Image == "" {
			out = append(out, "<none>")
			continue
		}
		out = append(out, c.Image)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

func objectPath(resource, namespace, name string) string {
	parts := []string{resource}
	if namespace != "" {
		parts = append(parts, namespace)
	}
	if name != "" {
		parts = append(parts, name)
	}
	return strings.Join(parts, "/")
}

// User is the user kubectl runs as (the scenario-file language puts it on the command lines it
// records).
func (k *Kubectl) User() string { return k.user }

// Report records err as kubectl prints a failed request and returns it: for a command that fails
// before it reaches the apiserver (a scenario file's name pattern that matches nothing).
func (k *Kubectl) Report(err error) error { return k.report(err) }

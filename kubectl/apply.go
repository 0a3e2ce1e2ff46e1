// apply.go: `kubectl apply -f` and the plain writes beneath it, `kubectl create` (POST, optionally
// ?dryRun=All) and `kubectl replace` (PUT).
//
//	Apply(ctx, manifest) ([]api.Object, error)
//	Create(ctx, obj) / CreateDryRun(ctx, obj) / Update(ctx, obj) (api.Object, error)
//
// kubesim simplification: apply does not compute a three-way merge from the
// last-applied-configuration annotation (client-side apply) or send an apply patch (server-side
// apply): it creates the object, or replaces an existing one with the manifest's content.
package kubectl

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// Apply decodes a manifest (YAML or JSON, one or more documents, strictly: an unknown field is an
// error naming its path) and creates each object, or updates it if it exists. A valid Kubernetes field
// that kubesim does not simulate is dropped with a warning, printed as kubectl prints the server's.
func (k *Kubectl) Apply(ctx context.Context, manifest []byte) ([]api.Object, error) {
	objs, warnings, err := api.DecodeWithWarnings(manifest)
	if err != nil {
		k.say("apply", "", "kubectl apply -f: %v", err)
		return nil, k.Report(apierrors.NewBadRequest(err.Error()))
	}
	for _, w := range warnings {
		k.say("warning", "", "Warning: %s", w)
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
	res, ok := api.ResourceOf(obj)
	if !ok {
		return nil, k.Report(apierrors.NewBadRequest(fmt.Sprintf("%T is not a kind kubesim serves", obj)))
	}
	m := obj.GetObjectMeta()
	if res.Namespaced && m.Namespace == "" {
		m.Namespace = "default"
	}
	k.say("request", objectPath(res.Name, m.Namespace, m.Name), "GET %s %s (kubectl apply: does it exist yet?)", res.GroupResource(), namespaced(m.Namespace, m.Name))
	existing, err := k.client.Do(ctx, &wire.Request{Verb: wire.VerbGet, Resource: res.Name, Namespace: m.Namespace, Name: m.Name})
	if err == nil {
		upd := api.DeepCopy(obj)
		upd.GetObjectMeta().ResourceVersion = existing.Object.GetObjectMeta().ResourceVersion
		return k.Update(ctx, upd)
	}
	if !apierrors.IsNotFound(err) {
		return nil, k.Report(err)
	}
	return k.Create(ctx, obj)
}

// Create sends POST for obj (`kubectl create -f`).
func (k *Kubectl) Create(ctx context.Context, obj api.Object) (api.Object, error) {
	return k.write(ctx, wire.VerbCreate, obj, false)
}

// CreateDryRun sends POST ?dryRun=All (`kubectl create --dry-run=server`): every gate runs, nothing
// is stored.
func (k *Kubectl) CreateDryRun(ctx context.Context, obj api.Object) (api.Object, error) {
	return k.write(ctx, wire.VerbCreate, obj, true)
}

// Update sends PUT for obj (`kubectl replace -f`), with whatever resourceVersion obj carries: a stale
// one is refused with 409 Conflict.
func (k *Kubectl) Update(ctx context.Context, obj api.Object) (api.Object, error) {
	return k.write(ctx, wire.VerbUpdate, obj, false)
}

func (k *Kubectl) write(ctx context.Context, verb string, obj api.Object, dryRun bool) (api.Object, error) {
	res, ok := api.ResourceOf(obj)
	if !ok {
		return nil, k.Report(apierrors.NewBadRequest(fmt.Sprintf("%T is not a kind kubesim serves", obj)))
	}
	m := obj.GetObjectMeta()
	ns := m.Namespace
	if res.Namespaced && ns == "" {
		ns = "default"
	}
	method := map[string]string{wire.VerbCreate: "POST", wire.VerbUpdate: "PUT"}[verb]
	what := res.GroupResource() + " " + namespaced(ns, m.Name)
	if dryRun {
		what += " ?dryRun=All"
	}
	if sum := summary(obj); sum != "" {
		what += " (" + sum + ")"
	}
	k.say("request", objectPath(res.Name, ns, m.Name), "%s %s", method, what)
	resp, err := k.client.Do(ctx, &wire.Request{Verb: verb, Resource: res.Name, Namespace: ns, Name: m.Name, Body: obj, DryRun: dryRun})
	if err != nil {
		return nil, k.Report(err)
	}
	return resp.Object, nil
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

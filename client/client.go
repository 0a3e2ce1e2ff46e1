// client.go: the typed client (client-go's clientset, made generic). Every call becomes an
// wire.Request carrying the caller's token, so it passes every gate under the caller's identity;
// there is no back door to etcd.
package client

import (
	"context"
	"fmt"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// Transport carries a request to the apiserver: *apiserver.Server in process, or an HTTP transport to
// a kubesim serve. Both speak the shapes of package wire, so the client never depends on the server.
type Transport interface {
	Do(ctx context.Context, req *wire.Request) (*wire.Response, error)
}

// Client is one identity's connection to the apiserver.
type Client struct {
	transport Transport
	token     string
	agent     string
	quiet     bool
	// impersonate, if set, is who every request asks to act as (kubectl --as).
	impersonate *wire.Impersonation
}

// New returns a client that authenticates with token and names itself agent in the trace (as the
// User-Agent header does): "kubectl", "kube-scheduler", "kubelet/node-2".
func New(t Transport, token, agent string) *Client {
	return &Client{transport: t, token: token, agent: agent}
}

// Agent is the name the client gives itself.
func (c *Client) Agent() string { return c.agent }

// WithToken returns a client for the same apiserver under another credential.
func (c *Client) WithToken(token string) *Client {
	cp := *c
	cp.token = token
	return &cp
}

// Impersonating returns a client under the same credential whose every request asks to act as imp's
// user (kubectl --as USER --as-group GROUP): the credential's user must be allowed to impersonate it.
func (c *Client) Impersonating(imp wire.Impersonation) *Client {
	cp := *c
	cp.impersonate = &imp
	return &cp
}

// Quiet returns a client whose requests leave no trace lines: for an observer outside the cluster's
// story (the simulator checking a condition), never for a component.
func (c *Client) Quiet() *Client {
	cp := *c
	cp.quiet = true
	return &cp
}

// Do sends a raw request under the client's identity. The typed methods are built on it.
func (c *Client) Do(ctx context.Context, req *wire.Request) (*wire.Response, error) {
	req.Token, req.Agent = c.token, c.agent
	req.Quiet = req.Quiet || c.quiet
	if c.impersonate != nil {
		req.Impersonate = c.impersonate
	}
	return c.transport.Do(ctx, req)
}

// ListOptions narrow a list or watch (metav1.ListOptions).
type ListOptions struct {
	LabelSelector       string
	FieldSelector       string
	ResourceVersion     string
	AllowWatchBookmarks bool
}

// DeleteOptions (metav1.DeleteOptions).
type DeleteOptions struct {
	GracePeriodSeconds *int64
	PropagationPolicy  string // Background (default), Foreground, Orphan
	DryRun             bool
}

// WriteOptions for create and update.
type WriteOptions struct {
	DryRun bool
	// HandOver gives obj to the apiserver (wire.Request.HandOver): the caller built it for this call
	// alone, shares nothing under it that anyone changes, and does not use it again. The object
	// returned is then read-only: it may share its parts with the apiserver's watch cache (or be obj
	// itself).
	HandOver bool
}

// ObjectPtr is the constraint of the typed client: a pointer to a kind that is an api.Object.
type ObjectPtr[T any] interface {
	*T
	api.Object
}

// Resource is the typed client for one kind: client.For[api.Pod](c).Get(ctx, "default", "nginx"). It is
// the dynamic client with the objects' type checked.
type Resource[T any, PT ObjectPtr[T]] struct {
	dyn Dynamic
}

// For returns the typed client for T. It panics if T is not a registered kind: that is a programming
// error, not a runtime condition.
func For[T any, PT ObjectPtr[T]](c *Client) Resource[T, PT] {
	res, ok := api.ResourceOf(PT(new(T)))
	if !ok {
		panic(fmt.Sprintf("client: %T is not a registered kind", new(T)))
	}
	return Resource[T, PT]{dyn: c.Resource(res)}
}

// Info describes the resource this client serves.
func (r Resource[T, PT]) Info() *api.Resource { return r.dyn.res }

func (r Resource[T, PT]) typed(obj api.Object, err error) (PT, error) {
	if err != nil {
		return nil, err
	}
	t, ok := obj.(PT)
	if !ok {
		return nil, apierrors.NewInternalError(fmt.Errorf("apiserver returned %T, want %T", obj, PT(nil)))
	}
	return t, nil
}

// Get reads one object, fresh from etcd. The result belongs to the caller.
func (r Resource[T, PT]) Get(ctx context.Context, namespace, name string) (PT, error) {
	return r.typed(r.dyn.Get(ctx, namespace, name))
}

// List reads the objects matching opts ("" namespace = all namespaces) and the resourceVersion to
// watch from. The items are copies that belong to the caller.
func (r Resource[T, PT]) List(ctx context.Context, namespace string, opts ListOptions) ([]PT, string, error) {
	items, rv, err := r.listShared(ctx, namespace, opts)
	if err != nil {
		return nil, "", err
	}
	for i := range items {
		items[i] = api.DeepCopy(items[i])
	}
	return items, rv, nil
}

// listShared is List without the copy, for informers: the items are the apiserver cache's own and
// must never be modified.
func (r Resource[T, PT]) listShared(ctx context.Context, namespace string, opts ListOptions) ([]PT, string, error) {
	items, rv, err := r.dyn.ListShared(ctx, namespace, opts)
	if err != nil {
		return nil, "", err
	}
	out := make([]PT, 0, len(items))
	for _, o := range items {
		t, err := r.typed(o, nil)
		if err != nil {
			return nil, "", err
		}
		out = append(out, t)
	}
	return out, rv, nil
}

// Watch opens a watch. Events carry objects shared with the apiserver's cache: never modify them.
func (r Resource[T, PT]) Watch(ctx context.Context, namespace string, opts ListOptions) (wire.Watch, error) {
	return r.dyn.Watch(ctx, namespace, opts)
}

// Create stores a new object and returns it as stored (name, uid, resourceVersion filled in). obj is
// not modified.
func (r Resource[T, PT]) Create(ctx context.Context, obj PT, opts ...WriteOptions) (PT, error) {
	return r.typed(r.dyn.Create(ctx, obj, opts...))
}

// Update replaces an object. If obj's resourceVersion is no longer current the answer is 409
// Conflict: read again, reapply the change, retry (see RetryOnConflict).
func (r Resource[T, PT]) Update(ctx context.Context, obj PT, opts ...WriteOptions) (PT, error) {
	return r.typed(r.dyn.Update(ctx, obj, "", opts...))
}

// UpdateStatus writes only obj's status (the status subresource).
func (r Resource[T, PT]) UpdateStatus(ctx context.Context, obj PT, opts ...WriteOptions) (PT, error) {
	return r.typed(r.dyn.Update(ctx, obj, "status", opts...))
}

// Delete deletes an object. deleted is false when it was only marked for deletion (it has finalizers,
// or it is a pod whose kubelet must stop it first); the returned object is then its new state.
func (r Resource[T, PT]) Delete(ctx context.Context, namespace, name string, opts DeleteOptions) (obj PT, deleted bool, err error) {
	o, deleted, err := r.dyn.Delete(ctx, namespace, name, opts)
	if err != nil {
		return nil, false, err
	}
	obj, err = r.typed(o, nil)
	return obj, deleted, err
}

// Bind assigns a pod to a node through the pods/binding subresource: the scheduler's only write to a
// pod. Like client-go's Bind, it answers only whether the binding was made. The Binding it sends is
// built for this call and handed over (wire.Request.HandOver), so the apiserver stores the bound pod
// without copying it for its answer.
func (c *Client) Bind(ctx context.Context, namespace, pod, node string) error {
	_, err := c.Do(ctx, &wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding",
		Namespace: namespace, Name: pod, Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: pod, Namespace: namespace},
			Target: api.ObjectReference{Kind: "Node", Name: node}}, HandOver: true})
	return err
}

// Evict asks for a pod's eviction (pods/eviction), as kubectl drain does.
func (c *Client) Evict(ctx context.Context, namespace, pod string, gracePeriodSeconds *int64) error {
	ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: pod, Namespace: namespace}}
	if gracePeriodSeconds != nil {
		ev.DeleteOptions = &api.DeleteOptions{GracePeriodSeconds: gracePeriodSeconds}
	}
	_, err := c.Do(ctx, &wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "eviction",
		Namespace: namespace, Name: pod, Body: ev})
	return err
}

// PatchScale sets replicas through the scale subresource with a merge patch of spec.replicas, as
// `kubectl scale` does when it is given no precondition: the apiserver applies it to the object as
// it finds it, so it never meets 409 Conflict.
func (c *Client) PatchScale(ctx context.Context, resource, namespace, name string, replicas int32) (*api.Scale, error) {
	resp, err := c.Do(ctx, &wire.Request{Verb: wire.VerbPatch, Resource: resource, Subresource: "scale",
		Namespace: namespace, Name: name, Body: &api.Scale{ObjectMeta: api.ObjectMeta{Namespace: namespace, Name: name},
			Spec: api.ScaleSpec{Replicas: replicas}}})
	if err != nil {
		return nil, err
	}
	return resp.Object.(*api.Scale), nil
}

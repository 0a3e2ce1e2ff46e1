// dynamic.go: the dynamic client (client-go's dynamic.Interface): the same calls as the typed client,
// for a resource known only at run time, with objects as api.Object. The garbage collector and the
// namespace controller need it: they act on whatever kind an ownerReference names or a namespace
// holds. The typed client (client.go) is built on it.
package client

import (
	"context"

	"kubesim/api"
	"kubesim/wire"
)

// Dynamic is the client of one resource, chosen at run time: c.Resource(res).Get(ctx, "default", "x").
type Dynamic struct {
	c   *Client
	res *api.Resource
}

// Resource returns the dynamic client of res.
func (c *Client) Resource(res *api.Resource) Dynamic { return Dynamic{c: c, res: res} }

// Info describes the resource this client serves.
func (d Dynamic) Info() *api.Resource { return d.res }

func (d Dynamic) do(ctx context.Context, req *wire.Request) (*wire.Response, error) {
	req.Resource = d.res.Name
	return d.c.Do(ctx, req)
}

// Get reads one object, fresh from etcd. The result belongs to the caller.
func (d Dynamic) Get(ctx context.Context, namespace, name string) (api.Object, error) {
	resp, err := d.do(ctx, &wire.Request{Verb: wire.VerbGet, Namespace: namespace, Name: name})
	if err != nil {
		return nil, err
	}
	return resp.Object, nil
}

// ListShared reads the objects matching opts ("" namespace = all namespaces) and the resourceVersion
// to watch from. The items are the apiserver cache's own: never modify them (copy with api.DeepCopy).
func (d Dynamic) ListShared(ctx context.Context, namespace string, opts ListOptions) ([]api.Object, string, error) {
	resp, err := d.do(ctx, &wire.Request{Verb: wire.VerbList, Namespace: namespace,
		LabelSelector: opts.LabelSelector, FieldSelector: opts.FieldSelector, ResourceVersion: opts.ResourceVersion})
	if err != nil {
		return nil, "", err
	}
	return resp.List.Items, resp.List.ResourceVersion, nil
}

// Watch opens a watch. Events carry objects shared with the apiserver's cache: never modify them.
func (d Dynamic) Watch(ctx context.Context, namespace string, opts ListOptions) (wire.Watch, error) {
	resp, err := d.do(ctx, &wire.Request{Verb: wire.VerbWatch, Namespace: namespace,
		LabelSelector: opts.LabelSelector, FieldSelector: opts.FieldSelector, ResourceVersion: opts.ResourceVersion,
		AllowWatchBookmarks: opts.AllowWatchBookmarks})
	if err != nil {
		return nil, err
	}
	return resp.Watch, nil
}

// Create stores a new object and returns it as stored (name, uid, resourceVersion filled in).
func (d Dynamic) Create(ctx context.Context, obj api.Object, opts ...WriteOptions) (api.Object, error) {
	o := writeOpts(opts)
	resp, err := d.do(ctx, &wire.Request{Verb: wire.VerbCreate, Namespace: obj.GetObjectMeta().Namespace, Body: obj,
		DryRun: o.DryRun, HandOver: o.HandOver})
	if err != nil {
		return nil, err
	}
	return resp.Object, nil
}

// Update replaces an object, or with a subresource ("status", "finalize") that part of it. If obj's
// resourceVersion is no longer current the answer is 409 Conflict.
func (d Dynamic) Update(ctx context.Context, obj api.Object, subresource string, opts ...WriteOptions) (api.Object, error) {
	m, o := obj.GetObjectMeta(), writeOpts(opts)
	resp, err := d.do(ctx, &wire.Request{Verb: wire.VerbUpdate, Subresource: subresource, Namespace: m.Namespace,
		Name: m.Name, Body: obj, DryRun: o.DryRun, HandOver: o.HandOver})
	if err != nil {
		return nil, err
	}
	return resp.Object, nil
}

// Delete deletes an object. deleted is false when it was only marked for deletion (it has finalizers,
// or it is a pod whose kubelet must stop it first); obj is then its new state.
func (d Dynamic) Delete(ctx context.Context, namespace, name string, opts DeleteOptions) (obj api.Object, deleted bool, err error) {
	resp, err := d.do(ctx, &wire.Request{Verb: wire.VerbDelete, Namespace: namespace, Name: name,
		GracePeriodSeconds: opts.GracePeriodSeconds, PropagationPolicy: opts.PropagationPolicy, DryRun: opts.DryRun})
	if err != nil {
		return nil, false, err
	}
	return resp.Object, resp.Deleted, nil
}

func writeOpts(opts []WriteOptions) WriteOptions {
	if len(opts) > 0 {
		return opts[0]
	}
	return WriteOptions{}
}

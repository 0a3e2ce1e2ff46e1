// Package informerrelist is lab 5: the heart of an informer (client-go's Reflector): keep a local
// copy of every Deployment up to date from a watch, resume a broken watch from the last
// resourceVersion, and, when the apiserver answers 410 Gone because that history is compacted away,
// list everything again. README.md says what to read and how the grader checks it.
//
// reflector.go holds what is given: the Reflector's state, Sync (the first list and watch), and the
// two requests. You write Pump and Replace in pump.go.
package informerrelist

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/wire"
)

// Reflector mirrors the Deployments of one namespace.
type Reflector struct {
	Deployments client.Resource[api.Deployment, *api.Deployment]
	Namespace   string

	// Cache maps "namespace/name" to the Deployment as last seen. LastRV is the resourceVersion the
	// cache is up to date with: where a new watch must start.
	Cache  map[string]*api.Deployment
	LastRV string
	// Watch is the open watch (nil before Sync).
	Watch wire.Watch
	// Lists counts the LISTs made: 1 after Sync, one more per relist.
	Lists int
}

// Sync makes the first list and opens the watch from its resourceVersion.
func (r *Reflector) Sync(ctx context.Context) error {
	items, rv, err := r.List(ctx)
	if err != nil {
		return err
	}
	r.Replace(items, rv)
	return r.Rewatch(ctx)
}

// List lists every Deployment of the namespace and returns the list's resourceVersion.
func (r *Reflector) List(ctx context.Context) ([]*api.Deployment, string, error) {
	r.Lists++
	return r.Deployments.List(ctx, r.Namespace, client.ListOptions{})
}

// Rewatch opens a watch from LastRV. When the apiserver no longer has the history after LastRV, the
// error is 410 Gone: apierrors.IsResourceExpired(err).
func (r *Reflector) Rewatch(ctx context.Context) error {
	w, err := r.Deployments.Watch(ctx, r.Namespace, client.ListOptions{ResourceVersion: r.LastRV, AllowWatchBookmarks: true})
	if err != nil {
		return err
	}
	r.Watch = w
	return nil
}

// Disconnect drops the watch, as a broken connection would; Cache and LastRV stay.
func (r *Reflector) Disconnect() { r.Watch.Stop() }

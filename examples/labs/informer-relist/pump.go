//go:build !solution

// pump.go: applying a watch's events, and recovering when it ends. This is where you work.
package informerrelist

import (
	"context"

	"kubesim/api"
	"kubesim/lab"
)

// Pump applies every event that has arrived on r.Watch, without waiting, and returns when none is
// left. When the watch has ended (r.Watch.Done()), it reopens it from LastRV, or, if the apiserver
// answers 410 Gone, lists everything again.
func (r *Reflector) Pump(ctx context.Context) error {
	// TODO(lab): loop on r.Watch.TryNext(). For each event: ADDED and MODIFIED put ev.Object (a
	// *api.Deployment) in r.Cache under its Key(), DELETED removes it, BOOKMARK changes nothing but
	// LastRV; then r.LastRV = strconv.FormatInt(ev.ResourceVersion, 10). When TryNext has nothing and
	// r.Watch.Done(), call r.Rewatch; if apierrors.IsResourceExpired(err), relist: r.List, r.Replace,
	// then r.Rewatch. Return when TryNext has nothing and the watch is still open.
	return lab.TODO("write Reflector.Pump in examples/labs/informer-relist/pump.go")
}

// Replace makes the cache exactly the listed items, up to date with resourceVersion rv.
func (r *Reflector) Replace(items []*api.Deployment, rv string) {
	// TODO(lab): a fresh map of items by Key(), and LastRV = rv. (What was cached but is not in the
	// list was deleted while nobody watched: it must go.)
}

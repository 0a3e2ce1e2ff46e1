//go:build solution

// pump_solution.go: the reference solution, built with -tags solution.
package informerrelist

import (
	"context"
	"strconv"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// Pump applies what has arrived, then resumes or relists a watch that ended.
func (r *Reflector) Pump(ctx context.Context) error {
	for {
		ev, ok := r.Watch.TryNext()
		if ok {
			switch d, _ := ev.Object.(*api.Deployment); ev.Type {
			case wire.Added, wire.Modified:
				r.Cache[d.Key()] = d
			case wire.Deleted:
				delete(r.Cache, d.Key())
			}
			r.LastRV = strconv.FormatInt(ev.ResourceVersion, 10)
			continue
		}
		if !r.Watch.Done() {
			return nil
		}
		err := r.Rewatch(ctx)
		if apierrors.IsResourceExpired(err) {
			var items []*api.Deployment
			var rv string
			if items, rv, err = r.List(ctx); err == nil {
				r.Replace(items, rv)
				err = r.Rewatch(ctx)
			}
		}
		if err != nil {
			return err
		}
	}
}

// Replace swaps the cache for the list.
func (r *Reflector) Replace(items []*api.Deployment, rv string) {
	r.Cache = make(map[string]*api.Deployment, len(items))
	for _, d := range items {
		r.Cache[d.Key()] = d
	}
	r.LastRV = rv
}

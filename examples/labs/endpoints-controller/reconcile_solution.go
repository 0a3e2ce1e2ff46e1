//go:build solution

// reconcile_solution.go: the reference solution, built with -tags solution.
package endpointscontroller

import (
	"context"
	"reflect"
	"sort"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// PodChanged queues every Service that selects the pod.
func (ec *Controller) PodChanged(pod *api.Pod) {
	for _, svc := range ec.Services.List() {
		if Selects(svc, pod) {
			ec.Queue.Add(svc.Key())
		}
	}
}

// Reconcile is the endpoints controller's syncService, in short.
func (ec *Controller) Reconcile(ctx context.Context, key string) error {
	svc, ok := ec.Services.Get(key)
	if !ok {
		ns, name := splitKey(key)
		if _, _, err := ec.Writer.Delete(ctx, ns, name, client.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		return nil
	}
	if len(svc.Spec.Selector) == 0 {
		return nil // its Endpoints are written by someone else (for default/kubernetes, the apiserver)
	}
	var ready, notReady []api.EndpointAddress
	for _, pod := range ec.Pods.List() {
		switch {
		case !Selects(svc, pod) || pod.Status.PodIP == "" || pod.DeletionTimestamp != nil:
		case IsReady(pod):
			ready = append(ready, Address(pod))
		default:
			notReady = append(notReady, Address(pod))
		}
	}
	var subsets []api.EndpointSubset
	if len(ready)+len(notReady) > 0 {
		byIP := func(a []api.EndpointAddress) { sort.Slice(a, func(i, j int) bool { return a[i].IP < a[j].IP }) }
		byIP(ready)
		byIP(notReady)
		subsets = []api.EndpointSubset{{Addresses: ready, NotReadyAddresses: notReady, Ports: Ports(svc)}}
	}
	cur, ok := ec.Endpoints.Get(key)
	if !ok {
		ep := &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: svc.Name, Namespace: svc.Namespace, Labels: svc.Labels}, Subsets: subsets}
		_, err := ec.Writer.Create(ctx, ep)
		return err
	}
	if reflect.DeepEqual(cur.Subsets, subsets) {
		return nil
	}
	ep := api.DeepCopy(cur) // never modify the cache
	ep.Subsets = subsets
	_, err := ec.Writer.Update(ctx, ep)
	return err
}

func splitKey(key string) (namespace, name string) {
	for i := range key {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

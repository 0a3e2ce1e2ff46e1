//go:build !solution

// reconcile.go: which Services a pod change concerns, and one Service's Endpoints. This is where
// you work.
package endpointscontroller

import (
	"context"

	"kubesim/api"
	"kubesim/lab"
)

// PodChanged is called for every pod added, deleted or updated (for an update, with the old pod and
// then the new one): it queues the key of every Service that selects the pod.
func (ec *Controller) PodChanged(pod *api.Pod) {
	// TODO(lab): for each Service in ec.Services.List() that Selects(svc, pod), ec.Queue.Add(svc.Key()).
}

// Reconcile makes the Endpoints named like the Service key match the pods the Service selects.
func (ec *Controller) Reconcile(ctx context.Context, key string) error {
	// TODO(lab): the Service from ec.Services.Get(key); if it is gone, delete the Endpoints
	// (ec.Writer.Delete; NotFound is fine). A Service without a selector is left alone: its
	// Endpoints are someone else's (default/kubernetes: the apiserver's). Otherwise build the desired Endpoints (same namespace and
	// name): one subset with Address(pod) of each selected pod that has an IP (Status.PodIP), under
	// Addresses if IsReady(pod) and NotReadyAddresses if not, sorted by IP, and Ports(svc); no
	// subset at all when no pod qualifies. Compare with ec.Endpoints.Get(key): create it if missing,
	// update it (on a copy of the cached one, keeping its resourceVersion) if its subsets differ.
	return lab.TODO("write Controller.PodChanged and Controller.Reconcile in examples/labs/endpoints-controller/reconcile.go")
}

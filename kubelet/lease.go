// lease.go: the node Lease, the kubelet's heartbeat (pkg/kubelet/nodelease and
// k8s.io/component-helpers/apimachinery/lease).
//
//	renewLease(ctx)   create kube-node-lease/<node> if missing, else move renewTime to now
//
// Since Kubernetes 1.17 a node's heartbeat is a tiny Lease object in kube-node-lease, renewed every
// 10 seconds (a quarter of leaseDurationSeconds 40), instead of a write of the whole node status.
// The node lifecycle controller reads renewTime: a Lease not renewed within its grace period makes the
// node Ready=Unknown. The kubelet keeps the Lease it last wrote and updates that, so a renewal costs
// one write and no read; only after a conflict (someone else wrote it) does it read it again.
package kubelet

import (
	"context"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// renewLease creates or renews the node's Lease, and reports failures in the trace: a kubelet whose
// requests are rejected keeps running, but the control plane stops hearing from it.
func (k *Kubelet) renewLease(ctx context.Context) {
	leases := client.For[api.Lease](k.client)
	now := api.NewMicroTime(k.clock.Now())
	object := "leases/" + api.NamespaceNodeLease + "/" + k.nodeName

	if k.node.lease == nil {
		fresh, err := leases.Get(ctx, api.NamespaceNodeLease, k.nodeName)
		switch {
		case apierrors.IsNotFound(err):
			lease := &api.Lease{
				ObjectMeta: api.ObjectMeta{Name: k.nodeName, Namespace: api.NamespaceNodeLease,
					OwnerReferences: k.nodeOwnerRefs()},
				Spec: api.LeaseSpec{HolderIdentity: api.Ptr(k.nodeName),
					LeaseDurationSeconds: api.Ptr(int32(nodeLeaseDuration.Seconds())), RenewTime: &now},
			}
			created, err := leases.Create(ctx, lease)
			if err != nil {
				k.leaseFailed(object, err)
				return
			}
			k.node.lease = created
			k.record("lease", object, created.ResourceVersion,
				"created Lease %s/%s (holder %s, leaseDurationSeconds %d): the node's heartbeat", api.NamespaceNodeLease, k.nodeName,
				k.nodeName, int(nodeLeaseDuration.Seconds()))
			k.leaseRecovered()
			return
		case err != nil:
			k.leaseFailed(object, err)
			return
		}
		k.node.lease = fresh
	}

	lease := api.DeepCopy(k.node.lease)
	lease.Spec.RenewTime = &now
	lease.Spec.HolderIdentity = api.Ptr(k.nodeName)
	if len(lease.OwnerReferences) == 0 {
		lease.OwnerReferences = k.nodeOwnerRefs()
	}
	updated, err := leases.Update(ctx, lease)
	if err != nil {
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			k.node.lease = nil // read it again next time
		}
		k.leaseFailed(object, err)
		return
	}
	k.node.lease = updated
	k.recordDetail("lease", object, updated.ResourceVersion, "renewed Lease %s/%s: renewTime %s",
		api.NamespaceNodeLease, k.nodeName, now.UTC().Format("15:04:05.000"))
	k.leaseRecovered()
}

// leaseFailed records a failed renewal once per outage (not every 10 seconds).
func (k *Kubelet) leaseFailed(object string, err error) {
	if k.node.leaseErr == err.Error() {
		return
	}
	k.node.leaseErr = err.Error()
	k.record("lease", object, "", "failed to renew lease: %v", err)
}

func (k *Kubelet) leaseRecovered() {
	if k.node.leaseErr != "" {
		k.record("lease", "leases/"+api.NamespaceNodeLease+"/"+k.nodeName, "", "renewed the Lease again after failures (%s)", k.node.leaseErr)
		k.node.leaseErr = ""
	}
}

// nodeOwnerRefs makes the Node own its Lease, so deleting the Node deletes the Lease.
func (k *Kubelet) nodeOwnerRefs() []api.OwnerReference {
	if k.node.uid == "" {
		return nil
	}
	return []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: k.nodeName, UID: k.node.uid}}
}

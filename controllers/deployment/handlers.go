// handlers.go: what the Deployment controller does when its informers report a change. Handlers only
// queue Deployment keys; every write happens later, in Reconcile.
//
//	addDeployment, updateDeployment, deleteDeployment   queue the Deployment
//	addReplicaSet, updateReplicaSet, deleteReplicaSet   queue the Deployment that owns it (or, for an
//	                                                    orphan, every Deployment whose selector matches)
//	deletePod                                           a Recreate rollout waits for old pods to be gone
package deployment

import (
	"maps"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/client"
	"kubesim/controllers/internal"
)

func (c *Controller) addDeployment(d *api.Deployment) {
	c.tracer.Record("watch", "deployments/"+d.Key(), d.ResourceVersion, "watch ADDED deployments/%s -> queue %q", d.Key(), d.Key())
	c.queue.Add(d.Key())
}

func (c *Controller) updateDeployment(old, cur *api.Deployment) {
	c.tracer.Detail("watch", "deployments/"+cur.Key(), cur.ResourceVersion, "watch MODIFIED deployments/%s -> queue %q", cur.Key(), cur.Key())
	c.queue.Add(cur.Key())
}

func (c *Controller) deleteDeployment(d *api.Deployment) {
	c.tracer.Detail("watch", "deployments/"+d.Key(), d.ResourceVersion, "watch DELETED deployments/%s -> queue %q", d.Key(), d.Key())
	c.queue.Add(d.Key())
}

func (c *Controller) addReplicaSet(rs *api.ReplicaSet) {
	if rs.DeletionTimestamp != nil {
		c.deleteReplicaSet(rs)
		return
	}
	if ref := rs.ControllerRef(); ref != nil {
		if d := c.resolveControllerRef(rs.Namespace, ref); d != nil {
			c.tracer.Detail("watch", "replicasets/"+rs.Key(), rs.ResourceVersion, "watch ADDED replicasets/%s of Deployment %s -> queue %q",
				rs.Key(), d.Name, d.Key())
			c.queue.Add(d.Key())
		}
		return
	}
	c.enqueueMatching(rs)
}

func (c *Controller) updateReplicaSet(old, cur *api.ReplicaSet) {
	if cur.ResourceVersion == old.ResourceVersion {
		return
	}
	curRef, oldRef := cur.ControllerRef(), old.ControllerRef()
	refChanged := (curRef == nil) != (oldRef == nil) || curRef != nil && curRef.UID != oldRef.UID
	if refChanged && oldRef != nil {
		if d := c.resolveControllerRef(old.Namespace, oldRef); d != nil {
			c.queue.Add(d.Key())
		}
	}
	if curRef != nil {
		if d := c.resolveControllerRef(cur.Namespace, curRef); d != nil {
			c.tracer.Detail("watch", "replicasets/"+cur.Key(), cur.ResourceVersion, "watch MODIFIED replicasets/%s of Deployment %s -> queue %q",
				cur.Key(), d.Name, d.Key())
			c.queue.Add(d.Key())
		}
		return
	}
	if refChanged || !maps.Equal(old.Labels, cur.Labels) {
		c.enqueueMatching(cur)
	}
}

func (c *Controller) deleteReplicaSet(rs *api.ReplicaSet) {
	if ref := rs.ControllerRef(); ref != nil {
		if d := c.resolveControllerRef(rs.Namespace, ref); d != nil {
			c.tracer.Detail("watch", "replicasets/"+rs.Key(), rs.ResourceVersion, "watch DELETED replicasets/%s of Deployment %s -> queue %q",
				rs.Key(), d.Name, d.Key())
			c.queue.Add(d.Key())
		}
	}
}

// deletePod: a Recreate rollout creates new pods only once every old one is gone, so the last pod of a
// Recreate Deployment going away is worth a look.
func (c *Controller) deletePod(pod *api.Pod) {
	rs := internal.ResolveControllerRef(c.rsInformer, "ReplicaSet", pod.Namespace, pod.ControllerRef())
	if rs == nil || rs.ControllerRef() == nil {
		return
	}
	d := c.resolveControllerRef(rs.Namespace, rs.ControllerRef())
	if d == nil || d.Spec.Strategy.Type != api.RecreateDeploymentStrategyType {
		return
	}
	for _, owned := range c.rsInformer.ByIndex(internal.IndexControllerUID, d.UID) {
		if len(c.podInformer.ByIndex(internal.IndexControllerUID, owned.UID)) > 0 {
			return
		}
	}
	c.tracer.Detail("watch", "pods/"+pod.Key(), pod.ResourceVersion, "watch DELETED pods/%s, the last pod of Recreate Deployment %s -> queue %q",
		pod.Key(), d.Name, d.Key())
	c.queue.Add(d.Key())
}

// enqueueMatching queues every Deployment whose selector matches an orphan ReplicaSet: one of them may
// adopt it.
func (c *Controller) enqueueMatching(rs *api.ReplicaSet) {
	for _, d := range c.dInformer.ByIndex(client.IndexNamespace, rs.Namespace) {
		sel, err := d.Spec.Selector.AsSelector()
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(rs.Labels)) {
			continue
		}
		c.tracer.Detail("watch", "replicasets/"+rs.Key(), rs.ResourceVersion, "watch replicasets/%s, an orphan matching Deployment %s -> queue %q",
			rs.Key(), d.Name, d.Key())
		c.queue.Add(d.Key())
	}
}

// resolveControllerRef returns the cached Deployment a controller reference points to, or nil.
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Deployment {
	return internal.ResolveControllerRef(c.dInformer, "Deployment", namespace, ref)
}

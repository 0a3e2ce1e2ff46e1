// handlers.go: what the ReplicaSet controller does when its informers report a change. Handlers only
// tick off expectations and queue keys; every write happens later, in Reconcile.
//
//	addRS, updateRS, deleteRS      a ReplicaSet changed: queue it
//	addPod, updatePod, deletePod   a pod changed: queue the ReplicaSet that owns it (or, for an orphan,
//	                               every ReplicaSet whose selector matches it, which may adopt it)
package replicaset

import (
	"maps"
	"strings"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/client"
	"kubesim/controllers/internal"
)

func (c *Controller) addRS(rs *api.ReplicaSet) {
	c.tracer.Record("watch", "replicasets/"+rs.Key(), rs.ResourceVersion, "watch ADDED replicasets/%s -> queue %q", rs.Key(), rs.Key())
	c.queue.Add(rs.Key())
}

func (c *Controller) updateRS(old, cur *api.ReplicaSet) {
	c.tracer.Detail("watch", "replicasets/"+cur.Key(), cur.ResourceVersion, "watch MODIFIED replicasets/%s -> queue %q", cur.Key(), cur.Key())
	if cur.Generation == old.Generation && (cur.DeletionTimestamp == nil) == (old.DeletionTimestamp == nil) &&
		maps.Equal(old.Labels, cur.Labels) && sameRef(old.ControllerRef(), cur.ControllerRef()) {
		c.enqueueStatusChange(cur) // its status was written (by this controller, most likely): recount later
		return
	}
	c.queue.Add(cur.Key())
}

func (c *Controller) deleteRS(rs *api.ReplicaSet) {
	c.expectations.DeleteExpectations(rs.Key())
	c.tracer.Record("watch", "replicasets/"+rs.Key(), rs.ResourceVersion, "watch DELETED replicasets/%s -> forget its expectations", rs.Key())
	c.queue.Add(rs.Key())
}

// addPod: a new pod owned by a ReplicaSet is one of the creates it expected.
func (c *Controller) addPod(pod *api.Pod) {
	if pod.DeletionTimestamp != nil {
		// A restarted controller can see a pod that is already being deleted: for it, that is a delete.
		c.observeDeletion(pod, "ADDED")
		return
	}
	if ref := pod.ControllerRef(); ref != nil {
		rs := c.resolveControllerRef(pod.Namespace, ref)
		if rs == nil {
			return
		}
		c.expectations.CreationObserved(rs.Key())
		adds, _ := c.expectations.Pending(rs.Key())
		c.tracer.Detail("watch", "pods/"+pod.Key(), pod.ResourceVersion, "watch ADDED pods/%s of ReplicaSet %s -> queue %q (%d more adds expected)",
			pod.Key(), rs.Name, rs.Key(), adds)
		if adds > 0 {
			c.enqueueStatusChange(rs) // still waiting for more: the sync can only recount
			return
		}
		c.queue.Add(rs.Key())
		return
	}
	c.enqueueMatching(pod, "ADDED")
}

// updatePod: a pod's labels or controller reference changed (adopt or release), it became ready, or
// it started terminating.
func (c *Controller) updatePod(old, cur *api.Pod) {
	if cur.ResourceVersion == old.ResourceVersion {
		return
	}
	labelsChanged := !maps.Equal(old.Labels, cur.Labels)
	if cur.DeletionTimestamp != nil {
		// Graceful deletion: the pod is going. Count the delete now, as Kubernetes does, so the
		// ReplicaSet can make a replacement without waiting for the kubelet.
		c.observeDeletion(cur, "MODIFIED")
		if labelsChanged {
			c.observeDeletion(old, "MODIFIED")
		}
		return
	}
	curRef, oldRef := cur.ControllerRef(), old.ControllerRef()
	refChanged := !sameRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := c.resolveControllerRef(old.Namespace, oldRef); rs != nil {
			c.queue.Add(rs.Key())
		}
	}
	if curRef != nil {
		rs := c.resolveControllerRef(cur.Namespace, curRef)
		if rs == nil {
			return
		}
		c.tracer.Detail("watch", "pods/"+cur.Key(), cur.ResourceVersion, "watch MODIFIED pods/%s of ReplicaSet %s -> queue %q",
			cur.Key(), rs.Name, rs.Key())
		if !refChanged && !labelsChanged && internal.IsPodActive(old) == internal.IsPodActive(cur) {
			c.enqueueStatusChange(rs) // scheduled, started, ready: only the status can change
		} else {
			c.queue.Add(rs.Key())
		}
		// A pod that just became ready turns available minReadySeconds later; look again then.
		if !api.IsPodReady(old) && api.IsPodReady(cur) && rs.Spec.MinReadySeconds > 0 {
			c.queue.AddAfter(rs.Key(), minReadyDelay(rs))
		}
		return
	}
	if labelsChanged || refChanged {
		c.enqueueMatching(cur, "MODIFIED")
	}
}

// deletePod: a pod owned by a ReplicaSet went (or started going); if the ReplicaSet deleted it, that
// is one of the deletes it expected.
func (c *Controller) deletePod(pod *api.Pod) { c.observeDeletion(pod, "DELETED") }

// observeDeletion ticks off an expected delete of pod (seen as verb: DELETED, or ADDED/MODIFIED with a
// deletionTimestamp) and queues its ReplicaSet.
func (c *Controller) observeDeletion(pod *api.Pod, verb string) {
	ref := pod.ControllerRef()
	if ref == nil {
		return
	}
	rs := c.resolveControllerRef(pod.Namespace, ref)
	if rs == nil {
		return
	}
	c.expectations.DeletionObserved(rs.Key(), pod.Key())
	_, dels := c.expectations.Pending(rs.Key())
	c.tracer.Detail("watch", "pods/"+pod.Key(), pod.ResourceVersion, "watch %s pods/%s of ReplicaSet %s: going -> queue %q (%d more deletes expected)",
		verb, pod.Key(), rs.Name, rs.Key(), dels)
	c.queue.Add(rs.Key())
}

// enqueueMatching queues every ReplicaSet whose selector matches an orphan pod: one of them may adopt it.
func (c *Controller) enqueueMatching(pod *api.Pod, verb string) {
	var names []string
	for _, rs := range c.rsInformer.ByIndex(client.IndexNamespace, pod.Namespace) {
		sel, err := rs.Spec.Selector.AsSelector()
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		names = append(names, rs.Name)
		c.queue.Add(rs.Key())
	}
	if len(names) > 0 {
		c.tracer.Detail("watch", "pods/"+pod.Key(), pod.ResourceVersion, "watch %s pods/%s, an orphan matching ReplicaSet %s -> queue it",
			verb, pod.Key(), strings.Join(names, ", "))
	}
}

// resolveControllerRef returns the cached ReplicaSet a controller reference points to, or nil if the
// reference is not to a ReplicaSet, or to one that no longer exists (same name, other UID).
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.ReplicaSet {
	return internal.ResolveControllerRef(c.rsInformer, "ReplicaSet", namespace, ref)
}

func sameRef(a, b *api.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.UID == b.UID
}

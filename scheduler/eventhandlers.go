// eventhandlers.go: what the scheduler does with each informer event (eventhandlers.go in
// Kubernetes). Pods are split in two streams: pending pods (no spec.nodeName) of one of our profiles
// go to the scheduling queue; bound pods go to the cache, where they use up their node. Nodes go to
// the cache. Every change that might make a waiting pod fit is a cluster event for the queue. The
// handlers only update memory; all writes to the apiserver happen in Step.
package scheduler

import (
	"reflect"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/scheduler/framework"
)

func (s *Scheduler) addEventHandlers() {
	s.podInformer.AddHandler(client.Handler[*api.Pod]{
		OnAdd:    s.onPodAdd,
		OnUpdate: s.onPodUpdate,
		OnDelete: s.onPodDelete,
	})
	s.nodeInformer.AddHandler(client.Handler[*api.Node]{
		OnAdd: func(n *api.Node) {
			s.cache.AddNode(n)
			s.queue.MoveAllToActiveOrBackoffQueue(framework.EventNodeAdd)
		},
		OnUpdate: func(old, n *api.Node) {
			s.cache.UpdateNode(old, n)
			if action := nodeSchedulingPropertiesChange(old, n); action != 0 {
				s.queue.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: framework.Node, ActionType: action})
			}
		},
		OnDelete: func(n *api.Node) {
			s.cache.RemoveNode(n)
			s.queue.MoveAllToActiveOrBackoffQueue(framework.EventNodeDelete)
		},
	})
}

// assigned reports whether the pod is bound to a node. A pod that has finished (Succeeded, Failed)
// no longer uses its node, so the scheduler does not count it (Kubernetes' pod informer filters
// them out with a field selector).
func assigned(p *api.Pod) bool { return p.Spec.NodeName != "" }

func terminal(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}

func (s *Scheduler) onPodAdd(p *api.Pod) {
	switch {
	case terminal(p):
	case assigned(p):
		s.cache.AddPod(p)
		s.queue.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodAdd)
	case s.responsibleFor(p):
		s.queue.Add(p)
	}
}

func (s *Scheduler) onPodUpdate(old, p *api.Pod) {
	switch {
	case terminal(p):
		s.onPodDelete(old)
	case assigned(old):
		s.cache.UpdatePod(old, p)
		s.queue.AssignedPodUpdated(old, p)
	case assigned(p):
		// Just bound (by us or by another scheduler): no longer pending, now using its node.
		s.queue.Delete(old)
		s.cache.AddPod(p)
		s.queue.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodAdd)
	case s.responsibleFor(p):
		s.queue.Update(old, p)
	default:
		s.queue.Delete(old) // its schedulerName changed to one we do not serve
	}
}

func (s *Scheduler) onPodDelete(p *api.Pod) {
	if assigned(p) {
		s.cache.RemovePod(p)
		s.queue.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete)
		return
	}
	s.queue.Delete(p)
}

// nodeSchedulingPropertiesChange names what changed about a node that scheduling cares about: its
// allocatable, labels, taints (and cordoning), conditions. A kubelet's heartbeat changes none of
// them, so heartbeats wake no pod.
func nodeSchedulingPropertiesChange(old, n *api.Node) framework.ActionType {
	var action framework.ActionType
	if !sameResources(old.Status.Allocatable, n.Status.Allocatable) {
		action |= framework.UpdateNodeAllocatable
	}
	if !reflect.DeepEqual(old.Labels, n.Labels) {
		action |= framework.UpdateNodeLabel
	}
	if !reflect.DeepEqual(old.Spec.Taints, n.Spec.Taints) || old.Spec.Unschedulable != n.Spec.Unschedulable {
		action |= framework.UpdateNodeTaint
	}
	if conditionsChanged(old.Status.Conditions, n.Status.Conditions) {
		action |= framework.UpdateNodeCondition
	}
	return action
}

func conditionsChanged(a, b []api.NodeCondition) bool {
	if len(a) != len(b) {
		return true
	}
	status := map[api.NodeConditionType]api.ConditionStatus{}
	for _, c := range a {
		status[c.Type] = c.Status
	}
	for _, c := range b {
		if s, ok := status[c.Type]; !ok || s != c.Status {
			return true
		}
	}
	return false
}

// sameResources compares two resource lists by value, as Kubernetes' semantic equality does: the
// same quantity can be held in different forms (110 as 110 or as 11e1), and a form change is no change.
func sameResources(a, b resource.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, q := range a {
		other, ok := b[name]
		if !ok || q.Cmp(other) != 0 {
			return false
		}
	}
	return true
}

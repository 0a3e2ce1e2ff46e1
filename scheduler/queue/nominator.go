// nominator.go: the nominator, the queue's record of which pending pods preemption promised a node
// (status.nominatedNodeName). Filters count a nominated pod of equal or higher priority as if it were
// already on its node, so the room freed for it is not handed to somebody else.
package queue

import (
	"kubesim/api"
	"kubesim/scheduler/framework"
)

// nominator maps nodes to the pods nominated to them. Guarded by the queue's lock.
type nominator struct {
	byNode map[string][]*framework.PodInfo
	byUID  map[string]string // pod UID -> node
}

func newNominator() nominator {
	return nominator{byNode: map[string][]*framework.PodInfo{}, byUID: map[string]string{}}
}

// add nominates pi to node ("" means: the node in its status, if any).
func (n *nominator) add(pi *framework.PodInfo, node string) {
	n.delete(pi.Pod)
	if node == "" {
		node = pi.Pod.Status.NominatedNodeName
	}
	if node == "" {
		return
	}
	n.byUID[pi.Pod.UID] = node
	n.byNode[node] = append(n.byNode[node], pi)
}

func (n *nominator) delete(pod *api.Pod) {
	node, ok := n.byUID[pod.UID]
	if !ok {
		return
	}
	delete(n.byUID, pod.UID)
	var keep []*framework.PodInfo
	for _, pi := range n.byNode[node] {
		if pi.Pod.UID != pod.UID {
			keep = append(keep, pi)
		}
	}
	if len(keep) == 0 {
		delete(n.byNode, node)
	} else {
		n.byNode[node] = keep
	}
}

// nominatedSnapshot is a copy of the nominations for one scheduling cycle.
type nominatedSnapshot map[string][]*framework.PodInfo

func (s nominatedSnapshot) NominatedPodsForNode(node string) []*framework.PodInfo { return s[node] }

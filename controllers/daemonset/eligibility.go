// eligibility.go: which nodes should run a DaemonSet's pod (nodeShouldRunDaemonPod), judged the way
// the scheduler will judge the pod the controller creates:
//
//	node name     the pod's required node affinity names this node (it always does: see pod.go)
//	node labels   spec.nodeSelector and the required nodeAffinity terms match
//	taints        every NoSchedule and NoExecute taint is tolerated
//
// shouldRun means "create a pod here if there is none"; shouldContinueRunning means "keep the pod
// that is here". They differ for a node that gained an untolerated NoSchedule taint: no new pod,
// but the running one stays, as NoSchedule does for any pod.
package daemonset

import (
	"kubesim/api"
)

// nodeShouldRunDaemonPod decides for one node.
func nodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	pod := newPod(ds, node.Name)
	if !api.RequiredNodeSelectionMatches(pod, node.Name, node.Labels) {
		return false, false
	}
	untoleratedNoSchedule := false
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		if t.Effect == api.TaintEffectPreferNoSchedule || api.TolerationsTolerateTaint(pod.Spec.Tolerations, t) {
			continue
		}
		if t.Effect == api.TaintEffectNoExecute {
			return false, false
		}
		untoleratedNoSchedule = true
	}
	if untoleratedNoSchedule {
		return false, true
	}
	return true, true
}

// authz_volumes.go: the Node authorizer's rule for PersistentVolumeClaims. A kubelet may read a claim
// only if a pod bound to its node names it in a persistentVolumeClaim volume: it needs to know the
// claim is bound before it starts the pod, and nothing more.
package apiserver

import (
	"fmt"

	"kubesim/api"
)

// authorizeNodeClaim decides a kubelet's get of a PersistentVolumeClaim. The claim need not exist:
// the kubelet may ask for one its pod names and learn that it is not there.
func (s *Server) authorizeNodeClaim(node string, a attributes) (bool, string) {
	podRes, _ := api.ResourceFor("pods")
	pods, _ := s.cache.list(podRes, selection{namespace: a.namespace, labels: everythingLabels(), fields: everythingFields(), pin: pin{"spec.nodeName", node}})
	for _, obj := range pods {
		for _, v := range obj.(*api.Pod).Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == a.name {
				return true, fmt.Sprintf("Node authorizer: pod %s on node %q uses claim %s/%s", obj.GetObjectMeta().Name, node, a.namespace, a.name)
			}
		}
	}
	return false, fmt.Sprintf("no relationship found between node '%s' and this object", node)
}

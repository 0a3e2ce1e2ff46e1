// volumes.go: the kubelet's part in persistent storage, much simplified. Kubernetes' volume manager
// attaches and mounts each of a pod's volumes before the sandbox starts (WaitForAttachAndMount), and
// a claim that is not bound cannot be mounted. kubesim mounts nothing: it only holds a pod back,
// before its sandbox, until every PersistentVolumeClaim it uses is Bound, looking again every
// volumeRetryPeriod. (The scheduler normally binds the pod only once its claims are bound or being
// bound; this covers the moment between, and a pod placed by spec.nodeName.)
package kubelet

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/client"
)

// volumeRetryPeriod is how often a pod waiting for its claims looks again.
const volumeRetryPeriod = 2 * time.Second

// claimsBound reports whether every claim the pod uses is Bound; if not, it says so once and
// retries the pod later.
func (k *Kubelet) claimsBound(ctx context.Context, w *podWorker, s *syncResult) bool {
	for _, v := range w.pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		name := v.PersistentVolumeClaim.ClaimName
		claim, err := client.For[api.PersistentVolumeClaim](k.client).Get(ctx, w.pod.Namespace, name)
		if err == nil && claim.Status.Phase == api.ClaimBound {
			continue
		}
		if !w.waitingForClaims {
			w.waitingForClaims = true
			s.add("%s waits for its PersistentVolumeClaim %s to be bound before its sandbox starts", w.key, name)
		}
		k.enqueueAfter(w.key, volumeRetryPeriod)
		return false
	}
	w.waitingForClaims = false
	return true
}

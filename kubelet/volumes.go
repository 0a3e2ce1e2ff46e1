// volumes.go: the kubelet's part in persistent storage, much simplified. Kubernetes' volume manager
// attaches and mounts each of a pod's volumes before the sandbox starts (WaitForAttachAndMount), and
// a claim that is not bound cannot be mounted. kubesim mounts nothing: it only holds a pod back,
// before its sandbox, until every PersistentVolumeClaim it uses is Bound, looking again every
// volumeRetryPeriod. (The scheduler normally binds the pod only once its claims are bound or being
// bound; this covers the moment between, and a pod placed by spec.nodeName.)
//
// A container's configMap and secret volumes are projected into files (volumeFiles): each key, or
// each of the volume's items, a file under the mount's path, or the one file a subPath names. The
// fake runtime's shell reads them (cat /etc/config/game.properties in a command or an exec probe).
// Simplified: the files are written once, when the container is created. Kubernetes rewrites them
// when the ConfigMap or Secret changes, at the pod's next sync (the kubelet's sync period, 1 minute
// plus jitter, after its watch or its cache's TTL has seen the change); kubesim does not, so a
// change reaches a container only when it is created again. (A subPath mount is never updated in
// Kubernetes either.) File modes are not modelled.
package kubelet

import (
	"context"
	"maps"
	"path"
	"slices"
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

// volumeFiles projects the configMap and secret volumes that spec mounts into files, by their path
// in the container. A volume whose object is missing now (optional, or deleted since it was mounted)
// gives no files.
func (k *Kubelet) volumeFiles(ctx context.Context, p *api.Pod, spec *api.Container) map[string]string {
	var files map[string]string
	src := k.configSource(p.Namespace)
	for _, vm := range spec.VolumeMounts {
		i := slices.IndexFunc(p.Spec.Volumes, func(v api.Volume) bool { return v.Name == vm.Name })
		if i < 0 {
			continue
		}
		v := &p.Spec.Volumes[i]
		data := map[string]string{}
		var items []api.KeyToPath
		switch {
		case v.ConfigMap != nil:
			cm, err := src.configMap(ctx, v.ConfigMap.Name)
			if err != nil {
				continue
			}
			maps.Copy(data, cm.Data)
			for key, b := range cm.BinaryData {
				data[key] = string(b)
			}
			items = v.ConfigMap.Items
		case v.Secret != nil:
			s, err := src.secret(ctx, v.Secret.SecretName)
			if err != nil {
				continue
			}
			for key, b := range s.Data {
				data[key] = string(b)
			}
			items = v.Secret.Items
		default:
			continue
		}
		projected := data // by path within the volume
		if len(items) > 0 {
			projected = map[string]string{}
			for _, it := range items {
				if content, ok := data[it.Key]; ok {
					projected[it.Path] = content
				}
			}
		}
		if files == nil {
			files = map[string]string{}
		}
		if vm.SubPath != "" {
			if content, ok := projected[vm.SubPath]; ok {
				files[vm.MountPath] = content
			}
			continue
		}
		for rel, content := range projected {
			files[path.Join(vm.MountPath, rel)] = content
		}
	}
	return files
}

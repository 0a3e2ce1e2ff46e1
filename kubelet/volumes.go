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
//
// When the ConfigMap or Secret changes, nothing tells the pod: the files are rewritten at the pod's
// next sync (SyncPod's WaitForAttachAndMount has the volume manager remount configMap and secret
// volumes), which for a running pod is the periodic one, every minute plus up to 50% of jitter. So
// a change shows in a running container within about 90 s; a subPath mount never changes, in
// Kubernetes too. Simplified: kubesim reads the object at the sync (the managers' Get strategy;
// the default Watch strategy's cache is as fresh), the files a container was created with are the
// only ones it ever has (a key added later is not seen), and file modes are not modelled.
package kubelet

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"
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

// containerFiles projects a container's files for its creation, and remembers them.
func (k *Kubelet) containerFiles(ctx context.Context, p *api.Pod, spec *api.Container, r *containerRecord) map[string]string {
	r.files, _ = k.volumeFiles(ctx, p, spec)
	return r.files
}

// refreshVolumeFiles rewrites a running container's files if their ConfigMaps or Secrets changed
// since they were last written. A volume whose object cannot be read keeps its files.
func (k *Kubelet) refreshVolumeFiles(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord, id string) {
	if r.files == nil {
		return // it mounts no configMap or secret (or had none to show when it was created)
	}
	files, ok := k.volumeFiles(ctx, w.pod, spec)
	if !ok {
		return
	}
	for _, vm := range spec.VolumeMounts {
		if old, had := r.files[vm.MountPath]; had && vm.SubPath != "" {
			files[vm.MountPath] = old // a subPath mount is a bind mount of the file: never updated
		}
	}
	if maps.Equal(files, r.files) {
		return
	}
	updater, can := k.runtime.(interface {
		UpdateContainerFiles(ctx context.Context, id string, files map[string]string) error
	})
	if !can {
		return
	}
	if err := k.runtimeCall(w, func() error { return updater.UpdateContainerFiles(ctx, id, files) }); err != nil {
		return // the next sync tries again
	}
	var changed []string
	for f, content := range files {
		if old, had := r.files[f]; had && old != content {
			changed = append(changed, f)
		}
	}
	slices.Sort(changed)
	r.files = files
	s.add("container %s: its configMap and secret volumes changed: rewrote %s", spec.Name, strings.Join(changed, ", "))
}

// volumeFiles projects the configMap and secret volumes that spec mounts into files, by their path
// in the container; ok is false when an object could not be read (optional and missing, or deleted
// since it was mounted): its volume gives no files.
func (k *Kubelet) volumeFiles(ctx context.Context, p *api.Pod, spec *api.Container) (files map[string]string, ok bool) {
	ok = true
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
				ok = false
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
				ok = false
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
	return files, ok
}

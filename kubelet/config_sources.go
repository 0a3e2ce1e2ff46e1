// config_sources.go: what the kubelet reads from ConfigMaps and Secrets for a pod: the environment of
// each container (makeEnvironmentVariables in pkg/kubelet/kubelet_pods.go) and the configMap and
// secret volumes it mounts before the pod's sandbox starts (pkg/kubelet/volumemanager).
//
//	containerEnv(ctx, pod, c, podIP) (envs, err)  env and envFrom resolved, $(VAR) expanded; err is
//	                                              the container's CreateContainerConfigError message
//	mountVolumes(ctx, w, s) bool            every configMap and secret volume found; else FailedMount
//
// The apiserver accepts a pod whose ConfigMap does not exist yet; the kubelet is the one that finds
// out, when it is about to create the container. The error reads `configmap "app-config" not found`
// (the kubelet's managers name the resource in the singular), the container waits with reason
// CreateContainerConfigError, an event "Error: ..." is recorded, and the pod is synced again after
// the pod worker's back-off: once the ConfigMap exists, the container starts. A reference marked
// optional is skipped when its object or key is missing.
//
// Simplified: Kubernetes' managers watch each referenced object (or cache it with a TTL); this kubelet
// GETs it when it needs it, the managers' "Get" strategy. A mounted volume's files (volumes.go) are
// rewritten at the pod's next sync after the ConfigMap changes; an environment variable never is.
package kubelet

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	fakeruntime "kubesim/runtime"
)

// Volume mount retries back off as the volume manager's pending operations do
// (pkg/volume/util/nestedpendingoperations: 500ms, doubling, at most 2m2s).
const (
	mountBackoffInitial = 500 * time.Millisecond
	mountBackoffMax     = 2*time.Minute + 2*time.Second
)

// configSource reads ConfigMaps and Secrets of one pod's namespace for one sync, each at most once
// (as makeEnvironmentVariables keeps them in a map for the call).
type configSource struct {
	k          *Kubelet
	namespace  string
	configMaps map[string]*api.ConfigMap
	secrets    map[string]*api.Secret
}

func (k *Kubelet) configSource(namespace string) *configSource {
	return &configSource{k: k, namespace: namespace, configMaps: map[string]*api.ConfigMap{}, secrets: map[string]*api.Secret{}}
}

// configMap returns the named ConfigMap; a NotFound error reads as the kubelet's configmap manager
// words it.
func (c *configSource) configMap(ctx context.Context, name string) (*api.ConfigMap, error) {
	if cm, ok := c.configMaps[name]; ok {
		return cm, nil
	}
	cm, err := client.For[api.ConfigMap](c.k.client).Get(ctx, c.namespace, name)
	if apierrors.IsNotFound(err) {
		return nil, &notFoundError{"configmap", name}
	}
	if err != nil {
		return nil, err
	}
	c.configMaps[name] = cm
	return cm, nil
}

// secret returns the named Secret; a NotFound error reads as the kubelet's secret manager words it.
func (c *configSource) secret(ctx context.Context, name string) (*api.Secret, error) {
	if s, ok := c.secrets[name]; ok {
		return s, nil
	}
	s, err := client.For[api.Secret](c.k.client).Get(ctx, c.namespace, name)
	if apierrors.IsNotFound(err) {
		return nil, &notFoundError{"secret", name}
	}
	if err != nil {
		return nil, err
	}
	c.secrets[name] = s
	return s, nil
}

// notFoundError is a referenced object that does not exist, worded as the kubelet's managers word it
// (the resource in the singular): `configmap "app-config" not found`.
type notFoundError struct{ resource, name string }

func (e *notFoundError) Error() string { return fmt.Sprintf("%s %q not found", e.resource, e.name) }

// missing reports an error that an optional reference skips: the object is not there. Any other
// error (the apiserver unreachable, say) fails the container, optional or not.
func missing(err error, optional *bool) bool {
	var nf *notFoundError
	return optional != nil && *optional && errors.As(err, &nf)
}

// containerEnv resolves a container's environment: envFrom first (all keys, prefixed), then env,
// whose variables override those of envFrom, then the Services' variables that neither declares
// (service_env.go). A value's $(VAR) references read the Services' variables, envFrom and the
// variables declared before it (downward.go). Its error is the CreateContainerConfigError message.
func (k *Kubelet) containerEnv(ctx context.Context, p *api.Pod, c *api.Container, podIP string) ([]fakeruntime.KeyValue, error) {
	src := k.configSource(p.Namespace)
	fromSources := map[string]string{}
	for _, ef := range c.EnvFrom {
		var data map[string]string
		switch {
		case ef.ConfigMapRef != nil:
			cm, err := src.configMap(ctx, ef.ConfigMapRef.Name)
			if missing(err, ef.ConfigMapRef.Optional) {
				continue
			}
			if err != nil {
				return nil, err
			}
			data = cm.Data
		case ef.SecretRef != nil:
			s, err := src.secret(ctx, ef.SecretRef.Name)
			if missing(err, ef.SecretRef.Optional) {
				continue
			}
			if err != nil {
				return nil, err
			}
			data = make(map[string]string, len(s.Data))
			for key, v := range s.Data {
				data[key] = string(v)
			}
		}
		for key, v := range data {
			fromSources[ef.Prefix+key] = v
		}
	}
	services, err := k.serviceEnv(p)
	if err != nil {
		return nil, err
	}
	if len(c.Env) == 0 && len(fromSources) == 0 {
		return services, nil // the usual case, shared (the runtime keeps it, and reads it only)
	}
	var envs []fakeruntime.KeyValue
	declared := map[string]bool{}
	known := map[string]string{} // what a $(VAR) may refer to so far: the Services' variables,
	for _, kv := range services {
		known[kv.Key] = kv.Value
	}
	maps.Copy(known, fromSources) // overridden by envFrom, then by each declared variable in turn
	for _, ev := range c.Env {
		value, skip, err := k.envValue(ctx, src, p, c, podIP, ev)
		if err != nil {
			return nil, err
		}
		if skip {
			continue
		}
		if ev.ValueFrom == nil {
			value = expandEnv(value, known)
		}
		declared[ev.Name] = true
		known[ev.Name] = value
		envs = append(envs, fakeruntime.KeyValue{Key: ev.Name, Value: value})
	}
	for _, key := range slices.Sorted(maps.Keys(fromSources)) {
		if !declared[key] {
			declared[key] = true
			envs = append(envs, fakeruntime.KeyValue{Key: key, Value: fromSources[key]})
		}
	}
	for _, kv := range services {
		if !declared[kv.Key] {
			envs = append(envs, kv)
		}
	}
	return envs, nil
}

// envValue is one env entry's value; skip means an optional reference found nothing.
func (k *Kubelet) envValue(ctx context.Context, src *configSource, p *api.Pod, c *api.Container, podIP string, ev api.EnvVar) (value string, skip bool, err error) {
	from := ev.ValueFrom
	switch {
	case ev.Value != "" || from == nil:
		return ev.Value, false, nil
	case from.FieldRef != nil:
		value, err := k.podFieldValue(p, podIP, from.FieldRef)
		return value, false, err
	case from.ResourceFieldRef != nil:
		value, err := k.containerResourceValue(p, c, from.ResourceFieldRef)
		return value, false, err
	case from.ConfigMapKeyRef != nil:
		ref := from.ConfigMapKeyRef
		cm, err := src.configMap(ctx, ref.Name)
		if missing(err, ref.Optional) {
			return "", true, nil
		}
		if err != nil {
			return "", false, err
		}
		v, ok := cm.Data[ref.Key]
		if !ok {
			if ref.Optional != nil && *ref.Optional {
				return "", true, nil
			}
			return "", false, fmt.Errorf("couldn't find key %s in ConfigMap %s/%s", ref.Key, p.Namespace, ref.Name)
		}
		return v, false, nil
	case from.SecretKeyRef != nil:
		ref := from.SecretKeyRef
		s, err := src.secret(ctx, ref.Name)
		if missing(err, ref.Optional) {
			return "", true, nil
		}
		if err != nil {
			return "", false, err
		}
		v, ok := s.Data[ref.Key]
		if !ok {
			if ref.Optional != nil && *ref.Optional {
				return "", true, nil
			}
			return "", false, fmt.Errorf("couldn't find key %s in Secret %s/%s", ref.Key, p.Namespace, ref.Name)
		}
		return string(v), false, nil
	}
	return "", false, nil // a source kubesim does not model (fileKeyRef): dropped when decoded
}

// mountable reads the ConfigMap or Secret (kind "configmap" or "secret") a volume draws on: nil if it
// exists, or is optional and missing.
func (c *configSource) mountable(ctx context.Context, kind, name string, optional *bool) error {
	var err error
	if kind == "configmap" {
		_, err = c.configMap(ctx, name)
	} else {
		_, err = c.secret(ctx, name)
	}
	if missing(err, optional) {
		return nil
	}
	return err
}

// projected checks the ConfigMaps and Secrets a projected volume draws on (the kube-api-access
// volume's kube-root-ca.crt among them), each of which must exist unless optional; several missing
// read as Kubernetes' aggregate error, "[a, b]". Simplified: the token is not requested
// (TokenRequest) and no file is written.
func (c *configSource) projected(ctx context.Context, v *api.ProjectedVolumeSource) error {
	var errs []string
	for _, p := range v.Sources {
		var err error
		switch {
		case p.ConfigMap != nil:
			err = c.mountable(ctx, "configmap", p.ConfigMap.Name, p.ConfigMap.Optional)
		case p.Secret != nil:
			err = c.mountable(ctx, "secret", p.Secret.Name, p.Secret.Optional)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errors.New(errs[0])
	}
	return fmt.Errorf("[%s]", strings.Join(errs, ", "))
}

// mountVolumes sets up the pod's configMap, secret and projected volumes, which must exist (unless optional)
// before the sandbox starts; emptyDir needs nothing. A volume that cannot be set up is reported as
// FailedMount and retried with back-off; the pod waits in ContainerCreating meanwhile.
func (k *Kubelet) mountVolumes(ctx context.Context, w *podWorker, s *syncResult) bool {
	src := k.configSource(w.pod.Namespace)
	for _, v := range w.pod.Spec.Volumes {
		if slices.Contains(w.mounted, v.Name) {
			continue
		}
		var err error
		switch {
		case v.ConfigMap != nil:
			err = src.mountable(ctx, "configmap", v.ConfigMap.Name, v.ConfigMap.Optional)
		case v.Secret != nil:
			err = src.mountable(ctx, "secret", v.Secret.SecretName, v.Secret.Optional)
		case v.Projected != nil:
			err = src.projected(ctx, v.Projected)
		}
		key := w.uid + "/" + v.Name
		if err != nil {
			delay := k.mountBackoff.Next(key, k.clock.Now())
			k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "FailedMount", "MountVolume.SetUp failed for volume %q : %v", v.Name, err)
			s.add("volume %q of %s not mounted: %v (retrying in %s)", v.Name, w.key, err, delay)
			k.enqueueAfter(w.key, delay)
			return false
		}
		k.mountBackoff.Reset(key)
		w.mounted = append(w.mounted, v.Name)
	}
	return true
}

// downward.go: the downward API as the kubelet resolves it when it builds a container's environment
// (podFieldSelectorRuntimeValue, containerResourceRuntimeValue and the $(VAR) expansion of
// pkg/kubelet/kubelet_pods.go and third_party/forked/golang/expansion).
//
//	podFieldValue(pod, podIP, fs)          metadata from the pod; spec.nodeName, serviceAccountName;
//	                                       status.podIP(s) from the sandbox, status.hostIP(s) the node's
//	containerResourceValue(pod, c, fs)     a request or limit in divisors; an unset limit is the node's
//	                                       allocatable, as the kubelet defaults it for the downward API
//	expandEnv(value, vars)                 $(NAME) replaced when NAME is known, $$ an escaped $
//	expandAll(words, envs)                 a container's command or args expanded with its whole
//	                                       environment (ExpandContainerCommandAndArgs)
//
// A reference to a variable not defined (yet) stays as written, "$(NAME)", as on a real node.
package kubelet

import (
	"strings"

	"kubesim/api"
	"kubesim/api/resource"
	fakeruntime "kubesim/runtime"
)

func (k *Kubelet) podFieldValue(p *api.Pod, podIP string, fs *api.ObjectFieldSelector) (string, error) {
	switch fs.FieldPath {
	case "spec.nodeName", "spec.host":
		return p.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return p.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return k.cfg.InternalIP, nil
	case "status.podIP", "status.podIPs":
		return podIP, nil
	}
	return api.PodMetadataField(p, fs.FieldPath)
}

func (k *Kubelet) containerResourceValue(p *api.Pod, c *api.Container, fs *api.ResourceFieldSelector) (string, error) {
	if fs.ContainerName != "" {
		for _, other := range api.AllContainers(&p.Spec) {
			if other.Name == fs.ContainerName {
				c = other
				break
			}
		}
	}
	limited := *c
	limited.Resources.Limits = c.Resources.Limits.DeepCopy()
	if limited.Resources.Limits == nil {
		limited.Resources.Limits = resource.ResourceList{}
	}
	for name, q := range k.cfg.Allocatable() {
		if _, set := limited.Resources.Limits[name]; !set && name != resource.ResourcePods {
			limited.Resources.Limits[name] = q
		}
	}
	return api.ContainerResourceValue(fs, &limited)
}

// expandEnv replaces each $(NAME) in value by vars[NAME] when it is defined; $$ is a literal $.
func expandEnv(value string, vars map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		if value[i] != '$' || i+1 == len(value) {
			b.WriteByte(value[i])
			continue
		}
		switch next := value[i+1]; next {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(value[i+2:], ')')
			if end < 0 {
				b.WriteString("$(")
				i++
				continue
			}
			name := value[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			b.WriteByte('$')
			b.WriteByte(next)
			i++
		}
	}
	return b.String()
}

// expandAll expands each word of a command or its args against the container's environment.
func expandAll(words []string, envs []fakeruntime.KeyValue) []string {
	if len(words) == 0 {
		return nil
	}
	vars := make(map[string]string, len(envs))
	for _, kv := range envs {
		vars[kv.Key] = kv.Value
	}
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = expandEnv(w, vars)
	}
	return out
}

// downward.go: the downward API for environment variables: a container learns facts about its own
// pod (env[*].valueFrom.fieldRef) and its own resources (env[*].valueFrom.resourceFieldRef) without
// asking the apiserver. Interface: ObjectFieldSelector, ResourceFieldSelector, SplitSubscriptedPath,
// PodMetadataField, ContainerResourceValue.
//
// Who reads what: the kubelet resolves both just before it creates the container (it alone knows
// the pod's IP and the node's address), and kubectl describe prints what the metadata paths resolve
// to. The paths a pod may name, and the divisors, are validated on create (api/validation).
package api

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"kubesim/api/labels"
	"kubesim/api/resource"
)

// ObjectFieldSelector names one field of the pod itself: metadata.name, metadata.namespace,
// metadata.uid, metadata.labels['KEY'], metadata.annotations['KEY'], spec.nodeName,
// spec.serviceAccountName, status.hostIP(s), status.podIP(s). apiVersion defaults to v1.
type ObjectFieldSelector struct {
	APIVersion string `json:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath"`
}

// ResourceFieldSelector names one of a container's requests or limits (limits.cpu,
// requests.memory, limits.ephemeral-storage, ...), as a whole number of divisors (default 1),
// rounded up. containerName defaults to the container whose env it is.
type ResourceFieldSelector struct {
	ContainerName string            `json:"containerName,omitempty"`
	Resource      string            `json:"resource"`
	Divisor       resource.Quantity `json:"divisor,omitempty"`
}

// SplitSubscriptedPath splits metadata.labels['app'] into metadata.labels and app; ok is false for
// a path without a subscript.
func SplitSubscriptedPath(fieldPath string) (path, subscript string, ok bool) {
	s, found := strings.CutSuffix(fieldPath, "']")
	if !found {
		return fieldPath, "", false
	}
	path, subscript, found = strings.Cut(s, "['")
	if !found || path == "" {
		return fieldPath, "", false
	}
	return path, subscript, true
}

// PodMetadataField is the value of a metadata path of the pod: name, namespace, uid, one label or
// annotation by key, or all of them as sorted key="value" lines. Other paths (spec, status) are the
// kubelet's to resolve; they answer an error, as Kubernetes' fieldpath package does.
func PodMetadataField(p *Pod, fieldPath string) (string, error) {
	if path, key, ok := SplitSubscriptedPath(fieldPath); ok {
		switch path {
		case "metadata.annotations":
			if errs := labels.IsQualifiedName(strings.ToLower(key)); len(errs) != 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", fieldPath, strings.Join(errs, ";"))
			}
			return p.Annotations[key], nil
		case "metadata.labels":
			if errs := labels.IsQualifiedName(key); len(errs) != 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", fieldPath, strings.Join(errs, ";"))
			}
			return p.Labels[key], nil
		}
		return "", fmt.Errorf("fieldPath %q does not support subscript", fieldPath)
	}
	switch fieldPath {
	case "metadata.annotations":
		return formatMap(p.Annotations), nil
	case "metadata.labels":
		return formatMap(p.Labels), nil
	case "metadata.name":
		return p.Name, nil
	case "metadata.namespace":
		return p.Namespace, nil
	case "metadata.uid":
		return p.UID, nil
	}
	return "", fmt.Errorf("unsupported fieldPath: %v", fieldPath)
}

// formatMap prints a map as the downward API does: key="value" lines, sorted by key.
func formatMap(m map[string]string) string {
	lines := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		lines = append(lines, k+"="+strconv.Quote(m[k]))
	}
	return strings.Join(lines, "\n")
}

// ContainerResourceValue is a container's request or limit in whole divisors, rounded up: cpu in
// millicores against the divisor's millicores, memory, ephemeral storage and huge pages in bytes. A limit the
// container does not set reads 0 here; the kubelet fills it with the node's allocatable first.
func ContainerResourceValue(fs *ResourceFieldSelector, c *Container) (string, error) {
	divisor := fs.Divisor
	if divisor.IsZero() {
		divisor = resource.MustParse("1")
	}
	kind, name, _ := strings.Cut(fs.Resource, ".")
	var list resource.ResourceList
	switch kind {
	case "limits":
		list = c.Resources.Limits
	case "requests":
		list = c.Resources.Requests
	}
	switch resource.ResourceName(name) {
	case resource.ResourceCPU:
		q := list[resource.ResourceCPU]
		return ceilRatio(q.MilliValue(), divisor.MilliValue()), nil
	case resource.ResourceMemory, resource.ResourceEphemeralStorage:
		q := list[resource.ResourceName(name)]
		return ceilRatio(q.Value(), divisor.Value()), nil
	}
	if strings.HasPrefix(name, "hugepages-") && (kind == "limits" || kind == "requests") {
		q := list[resource.ResourceName(name)] // kubesim's nodes have no huge pages: 0 unless the container asks
		return ceilRatio(q.Value(), divisor.Value()), nil
	}
	return "", fmt.Errorf("unsupported container resource : %v", fs.Resource)
}

func ceilRatio(value, divisor int64) string {
	return strconv.FormatInt(int64(math.Ceil(float64(value)/float64(divisor))), 10)
}

// helpers.go: small helpers shared by the kubelet's files.
package kubelet

import (
	"maps"
	"slices"
	"strconv"

	"kubesim/api/resource"
)

// sortedKeys returns a map's keys in order: no Go map order may leak into behaviour (step mode must
// give the same trace every run).
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// qty prints one quantity of a resource list.
func qty(rl resource.ResourceList, name resource.ResourceName) string {
	q, ok := rl[name]
	if !ok {
		return "0"
	}
	return q.String()
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

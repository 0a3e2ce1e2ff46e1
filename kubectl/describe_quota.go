// describe_quota.go: `kubectl describe quota`, a ResourceQuota as kubectl's ResourceQuotaDescriber
// prints it: for each resource of status.hard, what the namespace uses and its limit.
//
//	Name:             compute-resources
//	Namespace:        team
//	Resource          Used   Hard
//	--------          ----   ----
//	pods              3      3
//	requests.cpu      600m   1
//
// Both columns come from the quota's status, which the resourcequota controller keeps (and
// admission raises at each create); a quota the controller has not seen yet shows no resources.
package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"text/tabwriter"

	"kubesim/api"
)

func describeQuota(w *tabwriter.Writer, q *api.ResourceQuota) {
	fmt.Fprintf(w, "Name:\t%s\n", q.Name)
	fmt.Fprintf(w, "Namespace:\t%s\n", q.Namespace)
	fmt.Fprintf(w, "Resource\tUsed\tHard\n")
	fmt.Fprintf(w, "--------\t----\t----\n")
	for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
		hard, used := q.Status.Hard[name], q.Status.Used[name]
		fmt.Fprintf(w, "%s\t%s\t%s\n", name, used.String(), hard.String())
	}
}

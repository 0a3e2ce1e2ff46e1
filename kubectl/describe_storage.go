// describe_storage.go: `kubectl describe` for the storage kinds, as kubectl's
// PersistentVolumeClaimDescriber, PersistentVolumeDescriber and StorageClassDescriber print them:
//
//	Name:          data
//	Namespace:     default
//	StorageClass:
//	Status:        Pending
//	Volume:
//	...
//	Used By:       db
//
// kubesim simplification: no finalizers (kubesim has no pvc-protection controller), no
// DataSource, no conditions.
package kubectl

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/wire"
)

func (k *Kubectl) describeClaim(ctx context.Context, w *tabwriter.Writer, c *api.PersistentVolumeClaim) {
	fmt.Fprintf(w, "Name:\t%s\n", c.Name)
	fmt.Fprintf(w, "Namespace:\t%s\n", c.Namespace)
	fmt.Fprintf(w, "StorageClass:\t%s\n", api.ClaimClass(c))
	status := string(c.Status.Phase)
	if c.DeletionTimestamp != nil {
		status = "Terminating"
	}
	fmt.Fprintf(w, "Status:\t%s\n", status)
	fmt.Fprintf(w, "Volume:\t%s\n", c.Spec.VolumeName)
	describeMap(w, "Labels", c.Labels, "=")
	describeMap(w, "Annotations", c.Annotations, ": ")
	capacity := ""
	if q, ok := c.Status.Capacity[resource.ResourceStorage]; ok {
		capacity = q.String()
	}
	fmt.Fprintf(w, "Capacity:\t%s\n", capacity)
	fmt.Fprintf(w, "Access Modes:\t%s\n", api.AccessModesString(c.Status.AccessModes))
	if c.Spec.VolumeMode != nil {
		fmt.Fprintf(w, "VolumeMode:\t%s\n", *c.Spec.VolumeMode)
	}
	fmt.Fprintf(w, "Used By:\t%s\n", k.claimUsers(ctx, c))
}

// claimUsers names the pods whose volumes use the claim, or <none>.
func (k *Kubectl) claimUsers(ctx context.Context, c *api.PersistentVolumeClaim) string {
	resp, err := k.client.Do(ctx, &wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: c.Namespace})
	if err != nil {
		return "<none>"
	}
	var users []string
	for _, obj := range resp.List.Items {
		for _, v := range obj.(*api.Pod).Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == c.Name {
				users = append(users, obj.GetObjectMeta().Name)
				break
			}
		}
	}
	if len(users) == 0 {
		return "<none>"
	}
	slices.Sort(users)
	return strings.Join(users, "\n\t")
}

func describeVolume(w *tabwriter.Writer, pv *api.PersistentVolume) {
	fmt.Fprintf(w, "Name:\t%s\n", pv.Name)
	describeMap(w, "Labels", pv.Labels, "=")
	describeMap(w, "Annotations", pv.Annotations, ": ")
	fmt.Fprintf(w, "StorageClass:\t%s\n", pv.Spec.StorageClassName)
	status := string(pv.Status.Phase)
	if pv.DeletionTimestamp != nil {
		status = "Terminating"
	}
	fmt.Fprintf(w, "Status:\t%s\n", status)
	claim := ""
	if ref := pv.Spec.ClaimRef; ref != nil {
		claim = ref.Namespace + "/" + ref.Name
	}
	fmt.Fprintf(w, "Claim:\t%s\n", claim)
	fmt.Fprintf(w, "Reclaim Policy:\t%s\n", pv.Spec.PersistentVolumeReclaimPolicy)
	fmt.Fprintf(w, "Access Modes:\t%s\n", api.AccessModesString(pv.Spec.AccessModes))
	if pv.Spec.VolumeMode != nil {
		fmt.Fprintf(w, "VolumeMode:\t%s\n", *pv.Spec.VolumeMode)
	}
	size := pv.Spec.Capacity[resource.ResourceStorage]
	fmt.Fprintf(w, "Capacity:\t%s\n", size.String())
	if na := pv.Spec.NodeAffinity; na == nil || na.Required == nil {
		fmt.Fprintf(w, "Node Affinity:\t<none>\n")
	} else {
		fmt.Fprintf(w, "Node Affinity:\t\n  Required Terms:\t\n")
		for _, t := range na.Required.NodeSelectorTerms {
			var reqs []string
			for _, r := range t.MatchExpressions {
				reqs = append(reqs, fmt.Sprintf("%s %s [%s]", r.Key, strings.ToLower(string(r.Operator)), strings.Join(r.Values, ", ")))
			}
			fmt.Fprintf(w, "    Term 0:\t%s\n", strings.Join(reqs, "\n\t"))
		}
	}
	fmt.Fprintf(w, "Message:\t%s\n", pv.Status.Message)
	fmt.Fprintf(w, "Source:\n")
	switch {
	case pv.Spec.HostPath != nil:
		fmt.Fprintf(w, "    Type:\tHostPath (bare host directory volume)\n    Path:\t%s\n", pv.Spec.HostPath.Path)
	case pv.Spec.Local != nil:
		fmt.Fprintf(w, "    Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t%s\n", pv.Spec.Local.Path)
	}
}

func describeClass(w *tabwriter.Writer, sc *api.StorageClass) {
	fmt.Fprintf(w, "Name:\t%s\n", sc.Name)
	fmt.Fprintf(w, "IsDefaultClass:\t%s\n", map[bool]string{true: "Yes", false: "No"}[api.IsDefaultClass(sc)])
	describeMap(w, "Annotations", sc.Annotations, "=")
	fmt.Fprintf(w, "Provisioner:\t%s\n", sc.Provisioner)
	if len(sc.Parameters) == 0 {
		fmt.Fprintf(w, "Parameters:\t<none>\n")
	} else {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(sc.Parameters)) {
			ps = append(ps, k+"="+sc.Parameters[k])
		}
		fmt.Fprintf(w, "Parameters:\t%s\n", strings.Join(ps, ","))
	}
	expansion := "<unset>"
	if sc.AllowVolumeExpansion != nil {
		expansion = fmt.Sprint(*sc.AllowVolumeExpansion)
	}
	fmt.Fprintf(w, "AllowVolumeExpansion:\t%s\n", expansion)
	if len(sc.MountOptions) == 0 {
		fmt.Fprintf(w, "MountOptions:\t<none>\n")
	} else {
		fmt.Fprintf(w, "MountOptions:\t%s\n", strings.Join(sc.MountOptions, ", "))
	}
	if sc.ReclaimPolicy != nil {
		fmt.Fprintf(w, "ReclaimPolicy:\t%s\n", *sc.ReclaimPolicy)
	}
	fmt.Fprintf(w, "VolumeBindingMode:\t%s\n", sc.BindingMode())
}

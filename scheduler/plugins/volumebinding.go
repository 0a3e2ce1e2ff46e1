// volumebinding.go: the VolumeBinding plugin. A pod that mounts PersistentVolumeClaims can only run
// where its volumes are:
//
//	PreFilter  every claim must exist; a claim that is not bound (spec.volumeName and the binding
//	           completed) and binds Immediately, or names a volume not yet bound to it, is the PV
//	           controller's job, so the pod waits: "pod has unbound immediate PersistentVolumeClaims"
//	           (UnschedulableAndUnresolvable: no preemption helps). A claim of a WaitForFirstConsumer
//	           class waits for the scheduler instead: it is bound for the node this pod gets.
//	Filter     a bound claim's volume must be reachable from the node (its node affinity); a waiting
//	           claim needs an Available volume there, or a class whose provisioner can make one (only
//	           on its selected node, once it has one). A node may get several of the reasons.
//	Reserve    the node is chosen: decide, per waiting claim, the volume to bind or "provision".
//	PreBind    write the decisions: the volume's claimRef (the PV controller completes the binding),
//	           or the claim's volume.kubernetes.io/selected-node annotation (the provisioner makes
//	           the volume on that node).
//
// What it simplifies: Kubernetes' PreBind then waits (up to 10 minutes) until the claims are bound
// before the pod is bound; kubesim binds the pod at once and the kubelet does not start it until its
// claims are bound. There is no assume cache (two pods in one instant could pick the same volume),
// no storage capacity tracking and no Score.
package plugins

import (
	"context"
	"fmt"
	"slices"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/scheduler/framework"
)

// VolumeBindingName is the plugin's name.
const VolumeBindingName = "VolumeBinding"

// The plugin's reasons, in Kubernetes' words.
const (
	ErrReasonUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims"
	ErrReasonBindConflict     = "node(s) didn't find available persistent volumes to bind"
	ErrReasonNodeConflict     = "node(s) didn't match PersistentVolume's node affinity"
	ErrReasonPVNotExist       = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
)

const volumeBindingStateKey framework.StateKey = "PreFilter" + VolumeBindingName

// VolumeBinding places pods where their volumes are, and binds the volumes that wait for a pod.
type VolumeBinding struct {
	handle framework.Handle
}

var (
	_ framework.PreFilterPlugin   = (*VolumeBinding)(nil)
	_ framework.FilterPlugin      = (*VolumeBinding)(nil)
	_ framework.ReservePlugin     = (*VolumeBinding)(nil)
	_ framework.PreBindPlugin     = (*VolumeBinding)(nil)
	_ framework.EnqueueExtensions = (*VolumeBinding)(nil)
)

// NewVolumeBinding is the plugin's factory.
func NewVolumeBinding(h framework.Handle) (framework.Plugin, error) {
	return &VolumeBinding{handle: h}, nil
}

// Name returns VolumeBindingName.
func (*VolumeBinding) Name() string { return VolumeBindingName }

// EventsToRegister: a claim bound or changed, a volume or class made, or a new or relabelled node.
func (*VolumeBinding) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add | framework.Update},
		{Resource: framework.PersistentVolume, ActionType: framework.Add | framework.Update},
		{Resource: framework.StorageClass, ActionType: framework.Add},
		{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel},
	}
}

// podVolumes is the cycle state: the pod's claims sorted by what they wait for, and, after Reserve,
// what PreBind must write.
type podVolumes struct {
	bound     []*api.PersistentVolumeClaim // spec.volumeName set
	delayed   []*api.PersistentVolumeClaim // WaitForFirstConsumer, not bound yet
	bindings  map[*api.PersistentVolumeClaim]*api.PersistentVolume
	provision []*api.PersistentVolumeClaim
}

func (p *podVolumes) Clone() framework.StateData { return p }

// PreFilter sorts the pod's claims and rejects the pod while one of them must be bound first. A
// claim is bound once the PV controller has completed the binding (spec.volumeName and the
// pv.kubernetes.io/bind-completed annotation); one that names its volume but is not complete yet
// (pre-bound by its author) waits as an Immediate one does.
func (pl *VolumeBinding) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	lister := pl.handle.Volumes()
	var pv podVolumes
	hasClaims := false
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		hasClaims = true
		name := v.PersistentVolumeClaim.ClaimName
		claim, ok := (*api.PersistentVolumeClaim)(nil), false
		if lister != nil {
			claim, ok = lister.Claim(pod.Namespace, name)
		}
		switch {
		case !ok:
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, claimNotFound(name))
		case claim.DeletionTimestamp != nil:
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q is being deleted", name))
		}
	}
	if !hasClaims {
		return nil, framework.NewStatus(framework.Skip)
	}
	immediate := false
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		claim, _ := lister.Claim(pod.Namespace, v.PersistentVolumeClaim.ClaimName)
		switch {
		case claimFullyBound(claim):
			pv.bound = append(pv.bound, claim)
		case claim.Spec.VolumeName == "" && pl.delayBinding(claim):
			pv.delayed = append(pv.delayed, claim)
		default:
			immediate = true
		}
	}
	if immediate {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnboundImmediate)
	}
	state.Write(volumeBindingStateKey, &pv)
	return nil, nil
}

// claimFullyBound reports whether the PV controller has completed the claim's binding.
func claimFullyBound(claim *api.PersistentVolumeClaim) bool {
	_, done := claim.Annotations[api.AnnBindCompleted]
	return claim.Spec.VolumeName != "" && done
}

// delayBinding reports whether the claim's class waits for the first consumer (a class that does not
// exist binds at once).
func (pl *VolumeBinding) delayBinding(claim *api.PersistentVolumeClaim) bool {
	class := api.ClaimClass(claim)
	if class == "" {
		return false
	}
	sc, ok := pl.handle.Volumes().Class(class)
	return ok && sc.BindingMode() == api.VolumeBindingWaitForFirstConsumer
}

// PreFilterExtensions is nil: other pods do not change the pod's volumes.
func (*VolumeBinding) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter checks that the node reaches the bound volumes and can serve the waiting claims. As in
// Kubernetes, one node may earn several reasons, in this order: a bound volume out of reach, no
// volume nor provisioning for a waiting claim, a bound volume that does not exist.
func (pl *VolumeBinding) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	pv, err := readPodVolumes(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	node := ni.Node()
	lister := pl.handle.Volumes()
	reachable, found := true, true
	for _, claim := range pv.bound {
		vol, ok := lister.Volume(claim.Spec.VolumeName)
		if !ok {
			found = false
			break
		}
		if !api.VolumeReachable(vol, node) {
			reachable = false
			break
		}
	}
	_, _, satisfied, err := pl.planDelayed(pv.delayed, node)
	if err != nil {
		return framework.AsStatus(err)
	}
	var reasons []string
	if !reachable {
		reasons = append(reasons, ErrReasonNodeConflict)
	}
	if !satisfied {
		reasons = append(reasons, ErrReasonBindConflict)
	}
	if !found {
		reasons = append(reasons, ErrReasonPVNotExist)
	}
	if len(reasons) > 0 {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
	}
	return nil
}

// planDelayed decides, for one node, which volume each waiting claim gets, or that it is to be
// provisioned; satisfied is false when a claim can get neither. A claim already given a node (the
// selected-node annotation) is provisioned there and nowhere else. The others are matched smallest
// request first, and no two get the same volume (findMatchingVolumes in Kubernetes).
func (pl *VolumeBinding) planDelayed(claims []*api.PersistentVolumeClaim, node *api.Node) (map[*api.PersistentVolumeClaim]*api.PersistentVolume, []*api.PersistentVolumeClaim, bool, error) {
	if len(claims) == 0 {
		return nil, nil, true, nil
	}
	var toMatch, provision []*api.PersistentVolumeClaim
	for _, claim := range claims {
		selected, ok := claim.Annotations[api.AnnSelectedNode]
		switch {
		case !ok:
			toMatch = append(toMatch, claim)
		case selected != node.Name:
			return nil, nil, false, nil
		default:
			provision = append(provision, claim)
		}
	}
	lister := pl.handle.Volumes()
	all := lister.Volumes()
	slices.SortStableFunc(toMatch, func(a, b *api.PersistentVolumeClaim) int {
		qa, qb := a.Spec.Resources.Requests[resource.ResourceStorage], b.Spec.Resources.Requests[resource.ResourceStorage]
		return qa.Cmp(qb)
	})
	bindings := map[*api.PersistentVolumeClaim]*api.PersistentVolume{}
	chosen := map[string]bool{}
	for _, claim := range toMatch {
		if vol := api.FindMatchingVolume(claim, all, node, chosen, true); vol != nil {
			bindings[claim] = vol
			chosen[vol.Name] = true
			continue
		}
		provision = append(provision, claim)
	}
	for _, claim := range provision {
		class := api.ClaimClass(claim)
		if class == "" {
			return nil, nil, false, fmt.Errorf("no class for claim %q", claim.Namespace+"/"+claim.Name)
		}
		sc, ok := lister.Class(class)
		if !ok {
			return nil, nil, false, fmt.Errorf("failed to find storage class %q", class)
		}
		if sc.Provisioner == "" || sc.Provisioner == api.NotProvisioned {
			return nil, nil, false, nil
		}
	}
	return bindings, provision, true, nil
}

// Reserve records what the chosen node means for the waiting claims.
func (pl *VolumeBinding) Reserve(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeName string) *framework.Status {
	pv, err := readPodVolumes(state)
	if err != nil || len(pv.delayed) == 0 {
		return nil // the pod has no claims (PreFilter skipped), or none waits for a node
	}
	ni, err := pl.handle.SnapshotSharedLister().Get(nodeName)
	if err != nil {
		return framework.AsStatus(err)
	}
	bindings, provision, ok, err := pl.planDelayed(pv.delayed, ni.Node())
	switch {
	case err != nil:
		return framework.AsStatus(err)
	case !ok:
		return framework.NewStatus(framework.Unschedulable, ErrReasonBindConflict)
	}
	pv.bindings, pv.provision = bindings, provision
	return nil
}

// Unreserve has nothing to undo: Reserve wrote nothing outside the cycle state.
func (*VolumeBinding) Unreserve(context.Context, *framework.CycleState, *api.Pod, string) {}

// PreBind writes Reserve's decisions through the apiserver.
func (pl *VolumeBinding) PreBind(ctx context.Context, state *framework.CycleState, _ *api.Pod, nodeName string) *framework.Status {
	pv, err := readPodVolumes(state)
	if err != nil {
		return nil
	}
	c := pl.handle.ClientSet()
	for claim, vol := range pv.bindings {
		err := updateFresh(ctx, pl.handle, client.For[api.PersistentVolume](c), "", vol.Name, func(v *api.PersistentVolume) {
			v.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID}
			v.SetAnnotation(api.AnnBoundByController, "yes")
		})
		if err != nil {
			return framework.AsStatus(err)
		}
	}
	for _, claim := range pv.provision {
		err := updateFresh(ctx, pl.handle, client.For[api.PersistentVolumeClaim](c), claim.Namespace, claim.Name, func(pvc *api.PersistentVolumeClaim) {
			pvc.SetAnnotation(api.AnnSelectedNode, nodeName)
		})
		if err != nil {
			return framework.AsStatus(err)
		}
	}
	return nil
}

// updateFresh reads an object fresh, changes it and writes it back, again on a conflict.
func updateFresh[T any, PT client.ObjectPtr[T]](ctx context.Context, h framework.Handle, r client.Resource[T, PT], namespace, name string, change func(PT)) error {
	return client.RetryOnConflict(ctx, h.Clock(), client.DefaultRetry, func() error {
		obj, err := r.Get(ctx, namespace, name)
		if err != nil {
			return err
		}
		change(obj)
		_, err = r.Update(ctx, obj)
		return err
	})
}

func readPodVolumes(state *framework.CycleState) (*podVolumes, error) {
	d, err := state.Read(volumeBindingStateKey)
	if err != nil {
		return nil, err
	}
	return d.(*podVolumes), nil
}

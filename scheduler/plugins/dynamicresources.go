// dynamicresources.go: the DynamicResources plugin (Dynamic Resource Allocation, GA and enabled by
// default in Kubernetes 1.34), as much of it as a cluster without ResourceClaims shows. kubesim has no
// claims, so PreFilter only records that the pod has none and skips; PostFilter, which runs before
// preemption, finds nothing to deallocate. That is the sentence every 1.34 FailedScheduling carries:
//
//	0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: ...
//
// and when an earlier PreFilter plugin rejected the pod outright (an unbound immediate claim), this
// PreFilter never ran: PostFilter fails reading its state, preemption does not run, and the message
// ends in Kubernetes' bare `not found` (`0/1 nodes are available: pod has unbound immediate
// PersistentVolumeClaims. not found`), as real clusters print it.
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// DynamicResourcesName is the plugin's name.
const DynamicResourcesName = "DynamicResources"

const dynamicResourcesStateKey framework.StateKey = DynamicResourcesName

// DynamicResources is the claim-less DynamicResources plugin.
type DynamicResources struct{}

var (
	_ framework.PreFilterPlugin  = DynamicResources{}
	_ framework.PostFilterPlugin = DynamicResources{}
)

// NewDynamicResources is the plugin's factory.
func NewDynamicResources(framework.Handle) (framework.Plugin, error) { return DynamicResources{}, nil }

// Name returns DynamicResourcesName.
func (DynamicResources) Name() string { return DynamicResourcesName }

// claimsState records that PreFilter ran; the pod's claims, always none in kubesim.
type claimsState struct{}

func (s claimsState) Clone() framework.StateData { return s }

// PreFilter records that the pod has no claims and skips the plugin's Filter.
func (DynamicResources) PreFilter(_ context.Context, state *framework.CycleState, _ *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	state.Write(dynamicResourcesStateKey, claimsState{})
	return nil, framework.NewStatus(framework.Skip)
}

// PreFilterExtensions is nil: there is nothing to update.
func (DynamicResources) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// PostFilter has no claim to deallocate; without PreFilter's state it fails as Kubernetes' does.
func (DynamicResources) PostFilter(_ context.Context, state *framework.CycleState, _ *api.Pod, _ framework.NodeToStatus) (*framework.PostFilterResult, *framework.Status) {
	if _, err := state.Read(dynamicResourcesStateKey); err != nil {
		return nil, framework.AsStatus(err)
	}
	return nil, framework.NewStatus(framework.Unschedulable, "no new claims to deallocate")
}

// registry.go: the in-tree registry and the default profile (default_registry.go and the v1
// configuration's getDefaultPlugins in Kubernetes). The order of DefaultPlugins is the order plugins
// run at each extension point, and the order Kubernetes uses: cheap, decisive filters first.
package plugins

import (
	"kubesim/api"
	"kubesim/scheduler/framework"
)

// NewInTreeRegistry returns a factory for every plugin in this package.
func NewInTreeRegistry() framework.Registry {
	return framework.Registry{
		PrioritySortName:       NewPrioritySort,
		NodeUnschedulableName:  NewNodeUnschedulable,
		NodeNameName:           NewNodeName,
		TaintTolerationName:    NewTaintToleration,
		NodeAffinityName:       NewNodeAffinity,
		NodePortsName:          NewNodePorts,
		NodeResourcesFitName:   NewNodeResourcesFit,
		VolumeRestrictionsName: NewVolumeRestrictions,
		NodeVolumeLimitsName:   NewNodeVolumeLimits,
		VolumeBindingName:      NewVolumeBinding,
		VolumeZoneName:         NewVolumeZone,
		PodTopologySpreadName:  NewPodTopologySpread,
		InterPodAffinityName:   NewInterPodAffinity,
		DynamicResourcesName:   NewDynamicResources,
		DefaultPreemptionName:  NewDefaultPreemption,
		BalancedAllocationName: NewBalancedAllocation,
		ImageLocalityName:      NewImageLocality,
		DefaultBinderName:      NewDefaultBinder,
	}
}

// DefaultPlugins is the default profile's plugin list with the default score weights, in Kubernetes'
// order: the four volume plugins sit between NodeResourcesFit and PodTopologySpread. (Kubernetes also
// enables SchedulingGates, which kubesim does not simulate; its NodeVolumeLimits and the disk
// conflicts of VolumeRestrictions are simplified, see their files.)
func DefaultPlugins() []framework.PluginRef {
	return []framework.PluginRef{
		{Name: PrioritySortName},
		{Name: NodeUnschedulableName},
		{Name: NodeNameName},
		{Name: TaintTolerationName, Weight: 3},
		{Name: NodeAffinityName, Weight: 2},
		{Name: NodePortsName},
		{Name: NodeResourcesFitName, Weight: 1},
		{Name: VolumeRestrictionsName},
		{Name: NodeVolumeLimitsName},
		{Name: VolumeBindingName},
		{Name: VolumeZoneName},
		{Name: PodTopologySpreadName, Weight: 2},
		{Name: InterPodAffinityName, Weight: 2},
		// Enabled by default since 1.34 (DRA GA), inserted before DefaultPreemption: deallocating an
		// idle claim is better than evicting a pod.
		{Name: DynamicResourcesName},
		{Name: DefaultPreemptionName},
		{Name: BalancedAllocationName, Weight: 1},
		{Name: ImageLocalityName, Weight: 1},
		{Name: DefaultBinderName},
	}
}

// DefaultProfile is a profile with the default plugins for schedulerName ("" means
// "default-scheduler").
func DefaultProfile(schedulerName string) framework.Profile {
	if schedulerName == "" {
		schedulerName = api.DefaultSchedulerName
	}
	return framework.Profile{SchedulerName: schedulerName, Plugins: DefaultPlugins()}
}

// pod.go: the pod a DaemonSet runs on one node (newPod): its template, plus
//
//	labels          pod-template-generation: the DaemonSet's generation
//	ownerReferences the DaemonSet, controller and blockOwnerDeletion
//	tolerations     the ones every daemon pod gets (AddOrUpdateDaemonPodTolerations)
//	affinity        a required node affinity on metadata.name = the node
//	                (ReplaceDaemonSetPodNodeNameNodeAffinity), which the scheduler honours
package daemonset

import (
	"strconv"

	"kubesim/api"
)

// TemplateGenerationLabel is the label (DaemonSetTemplateGenerationKey) telling which generation of
// the DaemonSet a pod was made from.
const TemplateGenerationLabel = "pod-template-generation"

// newPod builds the daemon pod for nodeName. It is not stored yet: the apiserver names it from
// generateName.
func newPod(ds *api.DaemonSet, nodeName string) *api.Pod {
	tmpl := api.DeepCopy(&api.Pod{ObjectMeta: ds.Spec.Template.ObjectMeta, Spec: ds.Spec.Template.Spec})
	labels := map[string]string{}
	for k, v := range tmpl.Labels {
		labels[k] = v
	}
	labels[TemplateGenerationLabel] = strconv.FormatInt(ds.Generation, 10)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName: ds.Name + "-",
			Namespace:    ds.Namespace,
			Labels:       labels,
			Annotations:  tmpl.Annotations,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID,
				Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}},
		},
		Spec: tmpl.Spec,
	}
	addDaemonTolerations(&pod.Spec)
	pod.Spec.Affinity = withNodeNameAffinity(pod.Spec.Affinity, nodeName)
	return pod
}

// daemonTolerations are added to every daemon pod: a DaemonSet's pod belongs on its node whatever
// state the node is in. The NoExecute ones have no tolerationSeconds: daemon pods are never evicted
// from a not-ready or unreachable node.
var daemonTolerations = []api.Toleration{
	{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
	{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
	{Key: api.TaintNodeDiskPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	{Key: api.TaintNodeMemoryPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	{Key: api.TaintNodePIDPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
}

func addDaemonTolerations(spec *api.PodSpec) {
	add := daemonTolerations
	if spec.HostNetwork {
		add = append(append([]api.Toleration(nil), add...),
			api.Toleration{Key: api.TaintNodeNetworkUnavailable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
	}
	for _, t := range add {
		replaced := false
		for i := range spec.Tolerations {
			if spec.Tolerations[i].Key == t.Key && spec.Tolerations[i].Effect == t.Effect {
				spec.Tolerations[i], replaced = t, true
			}
		}
		if !replaced {
			spec.Tolerations = append(spec.Tolerations, t)
		}
	}
}

// withNodeNameAffinity returns the affinity with its required node terms pinned to nodeName through
// matchFields metadata.name, keeping each term's matchExpressions.
func withNodeNameAffinity(aff *api.Affinity, nodeName string) *api.Affinity {
	pin := []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{nodeName}}}
	if aff == nil {
		aff = &api.Affinity{}
	}
	if aff.NodeAffinity == nil {
		aff.NodeAffinity = &api.NodeAffinity{}
	}
	req := aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if req == nil || len(req.NodeSelectorTerms) == 0 {
		aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: pin}}}
		return aff
	}
	for i := range req.NodeSelectorTerms {
		req.NodeSelectorTerms[i].MatchFields = pin
	}
	return aff
}

package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// Each kind's view has exactly the fields selectableFields lists (and metadata.name and
// metadata.namespace), each read from its place in the object; other fields are absent.
func TestObjectFieldsHaveExactlyTheSelectableFields(t *testing.T) {
	meta := api.ObjectMeta{Name: "n", Namespace: "ns"}
	objects := map[string]api.Object{
		"pods": &api.Pod{ObjectMeta: meta, Spec: api.PodSpec{NodeName: "node-1", SchedulerName: "sched", ServiceAccountName: "sa"},
			Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.0.0.1", NominatedNodeName: "node-2"}},
		"nodes": &api.Node{ObjectMeta: meta, Spec: api.NodeSpec{Unschedulable: true}},
		"events": &api.Event{ObjectMeta: meta, InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p", UID: "u",
			APIVersion: "v1", ResourceVersion: "7", FieldPath: "spec.containers{app}"}, Reason: "Started", ReportingController: "kubelet",
			Source: api.EventSource{Component: "kubelet"}, Type: "Normal"},
		"namespaces": &api.Namespace{ObjectMeta: meta, Status: api.NamespaceStatus{Phase: api.NamespaceActive}},
		"services":   &api.Service{ObjectMeta: meta, Spec: api.ServiceSpec{ClusterIP: "10.96.0.1", Type: api.ServiceTypeClusterIP}},
		"configmaps": &api.ConfigMap{ObjectMeta: meta},
	}
	want := map[string]map[string]string{
		"pods": {"spec.nodeName": "node-1", "spec.schedulerName": "sched", "spec.serviceAccountName": "sa", "status.phase": "Running",
			"status.podIP": "10.0.0.1", "status.nominatedNodeName": "node-2"},
		"nodes": {"spec.unschedulable": "true"},
		"events": {"involvedObject.kind": "Pod", "involvedObject.namespace": "ns", "involvedObject.name": "p", "involvedObject.uid": "u",
			"involvedObject.apiVersion": "v1", "involvedObject.resourceVersion": "7", "involvedObject.fieldPath": "spec.containers{app}",
			"reason": "Started", "reportingComponent": "kubelet", "source": "kubelet", "type": "Normal"},
		"namespaces": {"status.phase": "Active"},
		"services":   {"spec.clusterIP": "10.96.0.1", "spec.type": "ClusterIP"},
		"configmaps": {},
	}
	all := map[string]bool{}
	for _, fs := range selectableFields {
		for _, f := range fs {
			all[f] = true
		}
	}
	for resource, obj := range objects {
		view := objectFields(obj)
		assert.Len(t, want[resource], len(selectableFields[resource]), resource)
		for _, f := range selectableFields[resource] {
			assert.True(t, view.Has(f), "%s %s", resource, f)
			assert.Equal(t, want[resource][f], view.Get(f), "%s %s", resource, f)
		}
		for f := range all {
			if _, ok := want[resource][f]; !ok {
				assert.False(t, view.Has(f), "%s has no %s", resource, f)
				assert.Empty(t, view.Get(f))
			}
		}
		assert.Equal(t, "n", view.Get("metadata.name"))
		assert.Equal(t, "ns", view.Get("metadata.namespace"))
		assert.False(t, view.Has("spec.unknown"))
	}
}

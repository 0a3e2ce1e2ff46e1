// fieldsets.go: the fields each kind can be selected by (`kubectl get pods --field-selector
// spec.nodeName=node-1`). Kubernetes supports metadata.name and metadata.namespace everywhere and a
// short, fixed list per kind; anything else is `field label not supported`.
package apiserver

import (
	"strconv"

	"kubesim/api"
	"kubesim/api/fields"
)

// selectableFields lists the per-kind fields beyond metadata.name and metadata.namespace.
var selectableFields = map[string][]string{
	"pods":       {"spec.nodeName", "spec.schedulerName", "spec.serviceAccountName", "status.phase", "status.podIP", "status.nominatedNodeName"},
	"nodes":      {"spec.unschedulable"},
	"events":     {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
	"namespaces": {"status.phase"},
	"services":   {"spec.clusterIP", "spec.type"},
}

func supportedField(res *api.Resource, field string) bool {
	if field == "metadata.name" || field == "metadata.namespace" {
		return true
	}
	for _, f := range selectableFields[res.Name] {
		if f == field {
			return true
		}
	}
	return false
}

// objectFields returns the selectable field values of obj.
func objectFields(obj api.Object) fields.Set {
	m := obj.GetObjectMeta()
	set := fields.Set{"metadata.name": m.Name, "metadata.namespace": m.Namespace}
	switch o := obj.(type) {
	case *api.Pod:
		set["spec.nodeName"] = o.Spec.NodeName
		set["spec.schedulerName"] = o.Spec.SchedulerName
		set["spec.serviceAccountName"] = o.Spec.ServiceAccountName
		set["status.phase"] = string(o.Status.Phase)
		set["status.podIP"] = o.Status.PodIP
		set["status.nominatedNodeName"] = o.Status.NominatedNodeName
	case *api.Node:
		set["spec.unschedulable"] = strconv.FormatBool(o.Spec.Unschedulable)
	case *api.Event:
		set["involvedObject.kind"] = o.InvolvedObject.Kind
		set["involvedObject.namespace"] = o.InvolvedObject.Namespace
		set["involvedObject.name"] = o.InvolvedObject.Name
		set["involvedObject.uid"] = o.InvolvedObject.UID
		set["involvedObject.apiVersion"] = o.InvolvedObject.APIVersion
		set["involvedObject.resourceVersion"] = o.InvolvedObject.ResourceVersion
		set["involvedObject.fieldPath"] = o.InvolvedObject.FieldPath
		set["reason"] = o.Reason
		set["reportingComponent"] = o.ReportingController
		set["source"] = o.Source.Component
		set["type"] = o.Type
	case *api.Namespace:
		set["status.phase"] = string(o.Status.Phase)
	case *api.Service:
		set["spec.clusterIP"] = o.Spec.ClusterIP
		set["spec.type"] = string(o.Spec.Type)
	}
	return set
}

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

// objectFields returns the selectable field values of obj: a view that reads each field from the
// object when a selector asks for it, so that matching a watcher's field selector against every
// event (a kubelet's spec.nodeName) builds no map. It has exactly the fields selectableFields lists
// for obj's kind, beside metadata.name and metadata.namespace.
func objectFields(obj api.Object) fields.Fields { return objectFieldView{obj} }

type objectFieldView struct{ obj api.Object }

func (v objectFieldView) Has(field string) bool {
	_, ok := v.lookup(field)
	return ok
}

func (v objectFieldView) Get(field string) string {
	value, _ := v.lookup(field)
	return value
}

// lookup returns the field's value and whether obj's kind has the field.
func (v objectFieldView) lookup(field string) (string, bool) {
	m := v.obj.GetObjectMeta()
	switch field {
	case "metadata.name":
		return m.Name, true
	case "metadata.namespace":
		return m.Namespace, true
	}
	switch o := v.obj.(type) {
	case *api.Pod:
		switch field {
		case "spec.nodeName":
			return o.Spec.NodeName, true
		case "spec.schedulerName":
			return o.Spec.SchedulerName, true
		case "spec.serviceAccountName":
			return o.Spec.ServiceAccountName, true
		case "status.phase":
			return string(o.Status.Phase), true
		case "status.podIP":
			return o.Status.PodIP, true
		case "status.nominatedNodeName":
			return o.Status.NominatedNodeName, true
		}
	case *api.Node:
		if field == "spec.unschedulable" {
			return strconv.FormatBool(o.Spec.Unschedulable), true
		}
	case *api.Event:
		switch field {
		case "involvedObject.kind":
			return o.InvolvedObject.Kind, true
		case "involvedObject.namespace":
			return o.InvolvedObject.Namespace, true
		case "involvedObject.name":
			return o.InvolvedObject.Name, true
		case "involvedObject.uid":
			return o.InvolvedObject.UID, true
		case "involvedObject.apiVersion":
			return o.InvolvedObject.APIVersion, true
		case "involvedObject.resourceVersion":
			return o.InvolvedObject.ResourceVersion, true
		case "involvedObject.fieldPath":
			return o.InvolvedObject.FieldPath, true
		case "reason":
			return o.Reason, true
		case "reportingComponent":
			return o.ReportingController, true
		case "source":
			return o.Source.Component, true
		case "type":
			return o.Type, true
		}
	case *api.Namespace:
		if field == "status.phase" {
			return string(o.Status.Phase), true
		}
	case *api.Service:
		switch field {
		case "spec.clusterIP":
			return o.Spec.ClusterIP, true
		case "spec.type":
			return string(o.Spec.Type), true
		}
	}
	return "", false
}

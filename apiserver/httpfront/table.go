// table.go: server-side printing (k8s.io/kubernetes/pkg/printers/internalversion). kubectl get asks
// for `application/json;as=Table;v=v1;g=meta.k8s.io` and prints the cells it gets back; columns with
// priority 1 appear only with -o wide. Each row carries the object's metadata (or the whole object
// with ?includeObject=Object), from which kubectl takes the NAMESPACE column of -A and --show-labels.
//
//	wantsTable(r)                       did kubectl ask for a Table?
//	(*Handler).table(res, items, rv, include)   the Table of items
//
// The columns and cell wording follow Kubernetes' printers for pods, nodes, namespaces, deployments,
// replicasets, daemonsets, events, leases, the config kinds (table_config.go: configmaps, secrets,
// poddisruptionbudgets), the network kinds (table_network.go) and the storage kinds
// (table_storage.go); every other kind gets NAME and AGE.
package httpfront

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/labels"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
)

// wantsTable reports whether the Accept header asks for a meta.k8s.io/v1 Table.
func wantsTable(r *http.Request) bool {
	for _, accept := range strings.Split(r.Header.Get("Accept"), ",") {
		if strings.Contains(accept, "as=Table") && strings.Contains(accept, "v=v1") && !strings.Contains(accept, "v=v1beta1") &&
			strings.Contains(accept, "g=meta.k8s.io") {
			return true
		}
	}
	return false
}

// includeObject is the ?includeObject policy: None, Metadata (the default) or Object.
func includeObject(r *http.Request) string {
	if v := r.URL.Query().Get("includeObject"); v != "" {
		return v
	}
	return "Metadata"
}

// column is one column: its definition and how to compute its cell.
type column struct {
	name     string
	typ      string // "string", "integer", "date"
	wide     bool   // priority 1: shown with -o wide
	describe string
	cell     func(h *Handler, obj api.Object) any
}

func (h *Handler) table(res *api.Resource, items []api.Object, meta metav1.ListMeta, include string) *metav1.Table {
	cols := columnsFor(res)
	t := &metav1.Table{TypeMeta: metav1.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"}, ListMeta: meta}
	for _, c := range cols {
		d := metav1.TableColumnDefinition{Name: c.name, Type: c.typ, Description: c.describe}
		if c.name == "Name" {
			d.Format = "name"
		}
		if c.wide {
			d.Priority = 1
		}
		t.ColumnDefinitions = append(t.ColumnDefinitions, d)
	}
	t.Rows = make([]metav1.TableRow, 0, len(items))
	for _, obj := range items {
		row := metav1.TableRow{Cells: make([]any, len(cols))}
		for i, c := range cols {
			row.Cells[i] = c.cell(h, obj)
		}
		row.Object = rowObject(res, obj, include)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// rowObject is what a row carries besides its cells: PartialObjectMetadata by default.
func rowObject(res *api.Resource, obj api.Object, include string) runtime.RawExtension {
	var v any
	switch include {
	case "None":
		return runtime.RawExtension{}
	case "Object":
		v = obj
	default:
		v = struct {
			APIVersion string          `json:"apiVersion"`
			Kind       string          `json:"kind"`
			Metadata   *api.ObjectMeta `json:"metadata"`
		}{"meta.k8s.io/v1", "PartialObjectMetadata", obj.GetObjectMeta()}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return runtime.RawExtension{}
	}
	return runtime.RawExtension{Raw: raw}
}

// since is a timestamp as an age ("5m", "2d3h"), measured on the cluster's clock.
func (h *Handler) since(t time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(h.clock.Now().Sub(t))
}

var (
	nameColumn = column{name: "Name", typ: "string", describe: "Name must be unique within a namespace.",
		cell: func(_ *Handler, o api.Object) any { return o.GetObjectMeta().Name }}
	ageColumn = column{name: "Age", typ: "string", describe: "CreationTimestamp is a timestamp representing the server time when this object was created.",
		cell: func(h *Handler, o api.Object) any { return h.since(o.GetObjectMeta().CreationTimestamp.Time) }}
)

func columnsFor(res *api.Resource) []column {
	switch res.GroupResource() {
	case "pods":
		return podColumns
	case "nodes":
		return nodeColumns
	case "namespaces":
		return namespaceColumns
	case "deployments.apps":
		return deploymentColumns
	case "replicasets.apps":
		return replicaSetColumns
	case "daemonsets.apps":
		return daemonSetColumns
	case "events":
		return eventColumns
	case "leases.coordination.k8s.io":
		return leaseColumns
	case "services":
		return serviceColumns
	case "endpoints":
		return endpointsColumns
	case "endpointslices.discovery.k8s.io":
		return endpointSliceColumns
	case "configmaps":
		return configMapColumns
	case "secrets":
		return secretColumns
	case "poddisruptionbudgets.policy":
		return podDisruptionBudgetColumns
	case "persistentvolumes":
		return persistentVolumeColumns
	case "persistentvolumeclaims":
		return persistentVolumeClaimColumns
	case "storageclasses.storage.k8s.io":
		return storageClassColumns
	}
	return []column{nameColumn, ageColumn}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

var namespaceColumns = []column{nameColumn,
	{name: "Status", typ: "string", describe: "The status of the namespace",
		cell: func(_ *Handler, o api.Object) any { return string(o.(*api.Namespace).Status.Phase) }},
	ageColumn,
}

var leaseColumns = []column{nameColumn,
	{name: "Holder", typ: "string", describe: "The holder of the lease",
		cell: func(_ *Handler, o api.Object) any {
			if h := o.(*api.Lease).Spec.HolderIdentity; h != nil {
				return *h
			}
			return ""
		}},
	ageColumn,
}

// containers, images and selector are the -o wide columns of the workload kinds.
func workloadWide(template func(api.Object) (*api.PodSpec, *api.LabelSelector)) []column {
	return []column{
		{name: "Containers", typ: "string", wide: true, describe: "Names of each container in the template.",
			cell: func(_ *Handler, o api.Object) any {
				spec, _ := template(o)
				var names []string
				for _, c := range spec.Containers {
					names = append(names, c.Name)
				}
				return strings.Join(names, ",")
			}},
		{name: "Images", typ: "string", wide: true, describe: "Images referenced by each container in the template.",
			cell: func(_ *Handler, o api.Object) any {
				spec, _ := template(o)
				var images []string
				for _, c := range spec.Containers {
					images = append(images, c.Image)
				}
				return strings.Join(images, ",")
			}},
		{name: "Selector", typ: "string", wide: true, describe: "Label selector for pods.",
			cell: func(_ *Handler, o api.Object) any {
				if _, sel := template(o); sel != nil {
					return sel.String()
				}
				return "<none>"
			}},
	}
}

var deploymentColumns = append([]column{nameColumn,
	{name: "Ready", typ: "string", describe: "Number of the pod with ready state",
		cell: func(_ *Handler, o api.Object) any {
			d := o.(*api.Deployment)
			return fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, replicas(d.Spec.Replicas))
		}},
	{name: "Up-to-date", typ: "integer", describe: "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.Deployment).Status.UpdatedReplicas) }},
	{name: "Available", typ: "integer", describe: "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.Deployment).Status.AvailableReplicas) }},
	ageColumn,
}, workloadWide(func(o api.Object) (*api.PodSpec, *api.LabelSelector) {
	d := o.(*api.Deployment)
	return &d.Spec.Template.Spec, d.Spec.Selector
})...)

var replicaSetColumns = append([]column{nameColumn,
	{name: "Desired", typ: "integer", describe: "Number of desired pods.",
		cell: func(_ *Handler, o api.Object) any { return int64(replicas(o.(*api.ReplicaSet).Spec.Replicas)) }},
	{name: "Current", typ: "integer", describe: "Number of actual pods.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.ReplicaSet).Status.Replicas) }},
	{name: "Ready", typ: "integer", describe: "The number of ready replicas for this replica set.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.ReplicaSet).Status.ReadyReplicas) }},
	ageColumn,
}, workloadWide(func(o api.Object) (*api.PodSpec, *api.LabelSelector) {
	rs := o.(*api.ReplicaSet)
	return &rs.Spec.Template.Spec, rs.Spec.Selector
})...)

var daemonSetColumns = append([]column{nameColumn,
	{name: "Desired", typ: "integer", describe: "The total number of nodes that should be running the daemon pod.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.DaemonSet).Status.DesiredNumberScheduled) }},
	{name: "Current", typ: "integer", describe: "The number of nodes that are running at least one daemon pod.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.DaemonSet).Status.CurrentNumberScheduled) }},
	{name: "Ready", typ: "integer", describe: "The number of nodes that should be running the daemon pod and have one or more ready.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.DaemonSet).Status.NumberReady) }},
	{name: "Up-to-date", typ: "integer", describe: "The total number of nodes that are running updated daemon pod.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.DaemonSet).Status.UpdatedNumberScheduled) }},
	{name: "Available", typ: "integer", describe: "The number of nodes that should be running the daemon pod and have one or more available.",
		cell: func(_ *Handler, o api.Object) any { return int64(o.(*api.DaemonSet).Status.NumberAvailable) }},
	{name: "Node Selector", typ: "string", describe: "NodeSelector is a selector which must be true for the pod to fit on a node.",
		cell: func(_ *Handler, o api.Object) any {
			return orNone(labels.Set(o.(*api.DaemonSet).Spec.Template.Spec.NodeSelector).String())
		}},
	ageColumn,
}, workloadWide(func(o api.Object) (*api.PodSpec, *api.LabelSelector) {
	ds := o.(*api.DaemonSet)
	return &ds.Spec.Template.Spec, ds.Spec.Selector
})...)

func replicas(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

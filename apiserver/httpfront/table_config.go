// table_config.go: the Table columns of ConfigMaps, Secrets and PodDisruptionBudgets, as Kubernetes'
// printers (pkg/printers/internalversion printConfigMap, printSecret, printPodDisruptionBudget) show
// them: `kubectl get cm` NAME DATA AGE, `kubectl get secret` NAME TYPE DATA AGE, `kubectl get pdb`
// NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE.
package httpfront

import "kubesim/api"

var configMapColumns = []column{nameColumn,
	{name: "Data", typ: "integer", describe: "Number of data in configmap",
		cell: func(_ *Handler, o api.Object) any {
			cm := o.(*api.ConfigMap)
			return int64(len(cm.Data) + len(cm.BinaryData))
		}},
	ageColumn,
}

var secretColumns = []column{nameColumn,
	{name: "Type", typ: "string", describe: "The type of the secret",
		cell: func(_ *Handler, o api.Object) any { return string(o.(*api.Secret).Type) }},
	{name: "Data", typ: "integer", describe: "The number of data entries in the secret",
		cell: func(_ *Handler, o api.Object) any { return int64(len(o.(*api.Secret).Data)) }},
	ageColumn,
}

var podDisruptionBudgetColumns = []column{nameColumn,
	{name: "Min Available", typ: "string", describe: "The minimum number or percentage of available pods this budget requires.",
		cell: func(_ *Handler, o api.Object) any { return orNA(o.(*api.PodDisruptionBudget).Spec.MinAvailable) }},
	{name: "Max Unavailable", typ: "string", describe: "The maximum number or percentage of unavailable pods this budget requires.",
		cell: func(_ *Handler, o api.Object) any { return orNA(o.(*api.PodDisruptionBudget).Spec.MaxUnavailable) }},
	{name: "Allowed Disruptions", typ: "integer", describe: "Calculated number of pods that may be disrupted at this time.",
		cell: func(_ *Handler, o api.Object) any {
			return int64(o.(*api.PodDisruptionBudget).Status.DisruptionsAllowed)
		}},
	ageColumn,
}

// orNA is a budget's count or percentage, "N/A" when unset.
func orNA(v *api.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

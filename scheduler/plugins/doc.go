// Package plugins holds the default scheduling plugins (k8s.io/kubernetes/pkg/scheduler/framework/
// plugins), one per file, each with its name constant, a compile-time check of the interfaces it
// implements and a New... factory; registry.go lists them and the default profile with Kubernetes'
// order and score weights (TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, InterPodAffinity 2,
// NodeResourcesFit 1, NodeResourcesBalancedAllocation 1, ImageLocality 1).
//
// Read next: nodeunschedulable.go and tainttoleration.go (the simplest filters), noderesourcesfit.go
// (Filter and Score on requests), then interpodaffinity.go and podtopologyspread.go (PreFilter state
// and its extensions), then defaultpreemption.go, then volumebinding.go (PreFilter to PreBind, for
// a pod's claims), volumerestrictions.go (ReadWriteOncePod) and volumezone.go.
//
// Promised: Kubernetes' rejection messages, word for word, and its scoring formulas.
// Simplified: the volume plugins' CSI limits and inline-disk conflicts (kubesim has no CSINode and no
// such volumes; see nodevolumelimits.go and volumerestrictions.go), no plugin arguments (defaults only: the
// system default topology spread constraints among them).
package plugins

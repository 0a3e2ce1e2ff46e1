// fiterror.go: FitError, the "no node fits" outcome of a cycle, and the message every Kubernetes user
// learns to read (FitError.Error in Kubernetes):
//
//	0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: },
//	2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1
//	Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
//
// (What follows the first full stop is PostFilter's: DynamicResources', then DefaultPreemption's.)
//
// Each node contributes the reasons of the first filter that rejected it; equal reasons are counted,
// and the "count reason" strings are sorted as strings (so "10 ..." sorts before "2 ..."). Interface:
// NodeToStatus, Diagnosis, FitError, NoNodeAvailableMsg.
package framework

import (
	"fmt"
	"sort"
	"strings"

	"kubesim/api"
)

// NoNodeAvailableMsg opens every FitError.
const NoNodeAvailableMsg = "0/%v nodes are available"

// NodeToStatus maps a node name to the status of the filter that rejected it.
type NodeToStatus map[string]*Status

// Diagnosis records why a cycle found no node.
type Diagnosis struct {
	NodeToStatus NodeToStatus
	// UnschedulablePlugins are the plugins that rejected the pod somewhere, sorted: the queue moves
	// the pod back only on cluster events these plugins care about.
	UnschedulablePlugins []string
	// PreFilterMsg is set when a PreFilter plugin rejected the pod before any node was looked at.
	PreFilterMsg string
	// PostFilterMsg is what PostFilter (preemption) said.
	PostFilterMsg string
}

// AddUnschedulablePlugin records a plugin that rejected the pod.
func (d *Diagnosis) AddUnschedulablePlugin(name string) {
	if name == "" {
		return
	}
	i := sort.SearchStrings(d.UnschedulablePlugins, name)
	if i < len(d.UnschedulablePlugins) && d.UnschedulablePlugins[i] == name {
		return
	}
	d.UnschedulablePlugins = append(d.UnschedulablePlugins, "")
	copy(d.UnschedulablePlugins[i+1:], d.UnschedulablePlugins[i:])
	d.UnschedulablePlugins[i] = name
}

// FitError says a pod fits no node, and why.
type FitError struct {
	Pod         *api.Pod
	NumAllNodes int
	Diagnosis   Diagnosis
}

// Error builds the message exactly as Kubernetes does: "0/N nodes are available:", then either the
// PreFilter message or the sorted histogram of filter reasons, each part ending in ".", then the
// PostFilter message, which brings its own full stop.
func (f *FitError) Error() string {
	msg := fmt.Sprintf(NoNodeAvailableMsg+":", f.NumAllNodes)
	if f.Diagnosis.PreFilterMsg != "" {
		msg += " " + f.Diagnosis.PreFilterMsg + "."
	} else if hist := ReasonHistogram(f.Diagnosis.NodeToStatus); len(hist) > 0 {
		msg += " " + strings.Join(hist, ", ") + "."
	}
	if f.Diagnosis.PostFilterMsg != "" {
		msg += " " + f.Diagnosis.PostFilterMsg
	}
	return msg
}

// ReasonHistogram counts each reason over all nodes and returns "count reason" strings, sorted.
func ReasonHistogram(m NodeToStatus) []string {
	counts := map[string]int{}
	for _, st := range m {
		for _, r := range st.Reasons() {
			counts[r]++
		}
	}
	out := make([]string, 0, len(counts))
	for r, n := range counts {
		out = append(out, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(out)
	return out
}

// Package scoreplugin is lab 2: a scheduler Score plugin. Among the nodes that pass Filter, prefer the
// one that runs the fewest pods of the same app (the pod's "app" label), so that one node's failure
// takes down as few replicas as possible. README.md says what to read and how the grader checks it.
//
// plugin.go holds what is given: the plugin's name and factory. You write Score and NormalizeScore in
// score.go.
package scoreplugin

import (
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

// Name is the plugin's name in the scheduler's profile and in its trace.
const Name = "SpreadByApp"

// SpreadByApp scores a node by how few pods of the pod's app it already runs.
type SpreadByApp struct{}

var (
	_ framework.ScorePlugin     = SpreadByApp{}
	_ framework.ScoreExtensions = SpreadByApp{}
)

// New is the plugin's factory, as the scheduler's registry wants it.
func New(framework.Handle) (framework.Plugin, error) { return SpreadByApp{}, nil }

// Name returns Name.
func (SpreadByApp) Name() string { return Name }

// ScoreExtensions returns the plugin itself: its raw scores need NormalizeScore.
func (p SpreadByApp) ScoreExtensions() framework.ScoreExtensions { return p }

// Profile is the scheduler profile the grader uses: only what placing a pod needs, and SpreadByApp as
// the only Score plugin, so that your scores alone decide (in the default profile, NodeResourcesFit
// would spread these pods too, and hide a mistake).
func Profile() framework.Profile {
	return framework.Profile{SchedulerName: "default-scheduler", Plugins: []framework.PluginRef{
		{Name: plugins.PrioritySortName}, {Name: plugins.NodeUnschedulableName}, {Name: plugins.TaintTolerationName},
		{Name: Name, Weight: 1}, {Name: plugins.DefaultBinderName}}}
}

// Package filterplugin is lab 1: a scheduler Filter plugin. Pods that carry the label disktype=ssd
// must run on a node labelled disktype=ssd; every other pod goes anywhere. README.md says what to read
// and how the grader checks your plugin.
//
// plugin.go holds what is given: the plugin's name, its rejection reason and its factory. You write
// Filter in filter.go.
package filterplugin

import (
	"kubesim/scheduler/framework"
)

// Name is the plugin's name in the scheduler's profile and in its messages.
const Name = "DiskType"

// ErrReason is the reason a node is rejected; the scheduler counts it in the FailedScheduling event:
// "0/3 nodes are available: 3 node(s) didn't have label disktype=ssd."
const ErrReason = "node(s) didn't have label disktype=ssd"

// DiskType keeps pods that ask for an SSD off nodes without one.
type DiskType struct{}

var _ framework.FilterPlugin = DiskType{}

// New is the plugin's factory, as the scheduler's registry wants it.
func New(framework.Handle) (framework.Plugin, error) { return DiskType{}, nil }

// Name returns Name.
func (DiskType) Name() string { return Name }

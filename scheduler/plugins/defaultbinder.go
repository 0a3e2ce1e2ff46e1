// defaultbinder.go: the DefaultBinder plugin. Binding is one request: POST pods/<name>/binding with
// the node's name, which the apiserver turns into spec.nodeName. A pod already bound (another
// scheduler won) gets 409 Conflict.
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// DefaultBinderName is the plugin's name.
const DefaultBinderName = "DefaultBinder"

// DefaultBinder binds through the apiserver.
type DefaultBinder struct {
	handle framework.Handle
}

var _ framework.BindPlugin = (*DefaultBinder)(nil)

// NewDefaultBinder is the plugin's factory.
func NewDefaultBinder(h framework.Handle) (framework.Plugin, error) {
	return &DefaultBinder{handle: h}, nil
}

// Name returns DefaultBinderName.
func (*DefaultBinder) Name() string { return DefaultBinderName }

// Bind posts the Binding.
func (b *DefaultBinder) Bind(ctx context.Context, _ *framework.CycleState, pod *api.Pod, nodeName string) *framework.Status {
	err := b.handle.ClientSet().Bind(ctx, pod.Namespace, pod.Name, nodeName)
	return framework.AsStatus(err)
}

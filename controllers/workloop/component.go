// component.go: a controller built on one Loop, as the driver sees it (client.Component). Every such
// controller answers the contract the same way, so it embeds Component rather than writing the four
// methods again:
//
//	NewComponent(loop, informers...)   the controller's Loop and the informers that feed it
//	Name       the Loop's Component ("deployment-controller")
//	Informers  the informers, in the order given
//	Step, Run  the Loop's
package workloop

import (
	"context"

	"kubesim/client"
)

// Component is a controller with one Loop: the client.Component a controller embeds.
type Component struct {
	loop      *Loop
	informers []client.InformerHandle
}

// NewComponent is the component of a controller whose work is loop, fed by informers.
func NewComponent(loop *Loop, informers ...client.InformerHandle) Component {
	return Component{loop: loop, informers: informers}
}

// Name is the controller's name, the Loop's Component.
func (c Component) Name() string { return c.loop.Component }

// Informers are the informers that feed the controller.
func (c Component) Informers() []client.InformerHandle { return c.informers }

// Step reconciles queued keys until one does work, if any is queued (see Loop.Step).
func (c Component) Step(ctx context.Context) (bool, error) { return c.loop.Step(ctx) }

// Run runs the Loop's workers until ctx ends.
func (c Component) Run(ctx context.Context) { c.loop.Run(ctx) }

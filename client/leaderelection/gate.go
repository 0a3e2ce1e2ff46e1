// gate.go: Gated, running a component only while an elector leads. This is what
// kube-controller-manager does with all its controllers: they start when it wins the election, and
// when it loses, it exits (its pod restarts and campaigns again) rather than risk acting alongside
// the new leader.
//
//	Gated(e, comp) client.Component
//
// In step mode the gated component's Step does nothing (returns false) while e does not lead. Its
// informers keep their caches warm either way, as a standby replica's would: they are run by
// whoever runs the component (see client.Component). In real time its Run starts comp.Run when e
// leads and cancels it when e stops leading, and starts it again when e leads again.
//
// Simplified: in Kubernetes the replica that lost its lease exits ("leaderelection lost") and its
// restarted process builds its caches and queues anew before it campaigns; here the replica stays up,
// stops its workers, and resumes with the informers and queues it kept (what changed meanwhile is in
// them, as a fresh process's first list would put it).
package leaderelection

import (
	"context"

	"kubesim/client"
)

// Gated returns comp, working only while e leads.
func Gated(e *LeaderElector, comp client.Component) client.Component {
	return &gated{elector: e, comp: comp}
}

type gated struct {
	elector *LeaderElector
	comp    client.Component
}

func (g *gated) Name() string                       { return g.comp.Name() }
func (g *gated) Informers() []client.InformerHandle { return g.comp.Informers() }

func (g *gated) Step(ctx context.Context) (bool, error) {
	if !g.elector.IsLeader() {
		return false, nil
	}
	return g.comp.Step(ctx)
}

func (g *gated) Run(ctx context.Context) {
	// wait blocks until IsLeader equals want, or ctx ends.
	wait := func(ctx context.Context, want bool) bool {
		for {
			leading, changed := g.elector.leadership()
			if leading == want {
				return true
			}
			select {
			case <-ctx.Done():
				return false
			case <-changed:
			}
		}
	}
	for wait(ctx, true) {
		lctx, cancel := context.WithCancel(ctx)
		go func() {
			wait(lctx, false)
			cancel()
		}()
		g.comp.Run(lctx)
		quit := lctx.Err() == nil // the component ended on its own: do not start it again
		cancel()
		if quit {
			return
		}
	}
}

// controlplane.go: starting the control plane's components as their real binaries run them:
// kube-controller-manager (package controllers: its controllers on one shared informer factory, all
// behind one leader election on the Lease kube-system/kube-controller-manager) and kube-scheduler
// (behind its own election on kube-system/kube-scheduler). Several replicas of either can run at
// once (the leader-election scenarios); only the leader acts.
package sim

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"kubesim/client"
	"kubesim/client/leaderelection"
	"kubesim/controllers"
	"kubesim/controllers/nodeipam"
	"kubesim/scheduler"
	"kubesim/scheduler/framework"
)

// ControllerManagerUser is kube-controller-manager's identity (bound to its bootstrap ClusterRole).
const ControllerManagerUser = controllers.User

// ControllerManager is one kube-controller-manager replica as the cluster knows it.
type ControllerManager struct {
	Name string // "kube-controller-manager", or "kube-controller-manager-2" for a second replica
	// Identity is what the replica writes into the Lease's holderIdentity (control-plane_<uuid>).
	Identity string
	Elector  *leaderelection.LeaderElector
	Manager  *controllers.Manager
	// parts are the names the replica's components are registered under (the elector first).
	parts []string
}

// StartControllerManager adds one kube-controller-manager replica to the cluster. Its requests travel
// on the link named after it, so Partition(name) cuts the whole replica off, as a real network fault
// would.
func (c *Cluster) StartControllerManager(ctx context.Context, name string) (*ControllerManager, error) {
	identity := c.leaderIdentity(name)
	m, err := controllers.NewManagerWith(c.Client(ControllerManagerUser, name), c.Clock, c.Trace, name,
		controllers.Options{Identity: identity, RootCA: c.rootCA,
			NodeIPAM: nodeipam.Options{ClusterCIDR: c.clusterCIDR(), NodeCIDRMaskSize: c.nodeCIDRMaskSize()}})
	if err != nil {
		return nil, err
	}
	if err := c.replaceControllers(ctx, m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cm := &ControllerManager{Name: name, Identity: identity, Elector: m.Elector, Manager: m}
	for i, comp := range m.Components() {
		// A second replica's controllers get distinct names in the cluster's registry; its elector
		// answers to the replica's name.
		if i > 0 && name != controllers.Name {
			comp = renamed{comp, name + "/" + comp.Name()}
		}
		if err := c.Add(ctx, comp); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		cm.parts = append(cm.parts, comp.Name())
		c.procs.add(comp.Name(), "kube-controller-manager")
	}
	c.controllerManagers[name] = cm
	return cm, nil
}

// ControllerFactory builds a controller to run in the place of a built-in one (Config.Controllers):
// typically a learner's, on its own client and informers; nil turns the built-in one off.
type ControllerFactory func(ctx context.Context, c *Cluster) (Component, error)

// replaceControllers puts Config.Controllers in the place of the built-in controllers they name.
func (c *Cluster) replaceControllers(ctx context.Context, m *controllers.Manager) error {
	names := make([]string, 0, len(m.Controllers))
	for _, ctrl := range m.Controllers {
		names = append(names, ctrl.Name())
	}
	for name := range c.Config.Controllers {
		if !slices.Contains(names, name) {
			return fmt.Errorf("no controller named %q to replace (the controllers are %s)", name, strings.Join(names, ", "))
		}
	}
	kept := m.Controllers[:0]
	for _, ctrl := range m.Controllers {
		if factory, ok := c.Config.Controllers[ctrl.Name()]; ok {
			var err error
			if ctrl, err = factory(ctx, c); err != nil {
				return err
			}
		}
		if ctrl != nil {
			kept = append(kept, ctrl)
		}
	}
	m.Controllers = kept
	return nil
}

// ControllerManager returns a kube-controller-manager replica started in this cluster
// ("kube-controller-manager" for the default one).
func (c *Cluster) ControllerManager(name string) (*ControllerManager, bool) {
	cm, ok := c.controllerManagers[name]
	return cm, ok
}

// renamed gives a component another name in the cluster's registry.
type renamed struct {
	client.Component
	name string
}

func (r renamed) Name() string { return r.name }

// Scheduler is one kube-scheduler replica: its elector and the scheduler itself.
type Scheduler struct {
	Name      string
	Elector   *leaderelection.LeaderElector
	Scheduler *scheduler.Scheduler
}

// StartScheduler adds a kube-scheduler named name (its trace component and its link), leading on the
// Lease kube-system/<lease>. The default scheduler is StartScheduler(ctx, "kube-scheduler",
// "kube-scheduler"); a second scheduler with its own profiles (the custom-scheduler scenario) passes
// its own name, lease and profiles.
func (c *Cluster) StartScheduler(ctx context.Context, name, lease string, profiles ...framework.Profile) (*Scheduler, error) {
	cl := c.Client(scheduler.Identity, name)
	// Kubernetes records the LeaderElection event as the scheduler name of the first profile.
	recordAs := "default-scheduler"
	if len(profiles) > 0 {
		recordAs = profiles[0].SchedulerName
	}
	elector, err := leaderelection.NewLeaderElector(cl, c.Clock, c.Trace, leaderelection.Config{
		Lock:   leaderelection.LeaseLock{Namespace: "kube-system", Name: lease, Identity: c.leaderIdentity(name)},
		Name:   name,
		Events: client.NewEventRecorder(cl, recordAs, "", c.Clock, c.Trace),
	})
	if err != nil {
		return nil, err
	}
	s, err := scheduler.New(scheduler.Options{Name: name, Client: cl, Clock: c.Clock, Trace: c.Trace,
		Seed: c.Config.Seed, Profiles: profiles, OutOfTreeRegistry: c.Config.SchedulerPlugins})
	if err != nil {
		return nil, err
	}
	if err := c.Add(ctx, elector); err != nil {
		return nil, err
	}
	// The elector answers to the replica's name (Stop(name) stops the replica); the scheduler itself
	// traces as name too, and is registered under name/scheduling.
	if err := c.Add(ctx, renamed{leaderelection.Gated(elector, s), name + "/scheduling"}); err != nil {
		return nil, err
	}
	if err := c.Driver.RunUntil(ctx, name+" holds its lease", func() (bool, error) { return elector.IsLeader(), nil }, 10); err != nil {
		return nil, err
	}
	started := &Scheduler{Name: name, Elector: elector, Scheduler: s}
	c.schedulers[name] = started
	return started, nil
}

// Scheduler returns a scheduler started in this cluster ("kube-scheduler" for the default one).
func (c *Cluster) Scheduler(name string) (*Scheduler, bool) {
	s, ok := c.schedulers[name]
	return s, ok
}

// leaderIdentity is the holderIdentity a control-plane replica writes into its Lease: as Kubernetes
// makes it, the host's name, "_" and a UUID the process draws at start. The host is the control-plane
// node the replica runs on ("control-plane", or "control-plane-2" for a replica named "...-2"); the
// UUID comes from the cluster's seed and the replica's name, so step mode stays reproducible.
func (c *Cluster) leaderIdentity(name string) string {
	host := "control-plane"
	if i := strings.LastIndex(name, "-"); i >= 0 && strings.Trim(name[i+1:], "0123456789") == "" && i+1 < len(name) {
		host += name[i:]
	}
	b := sha256.Sum256(fmt.Appendf(nil, "%d/%s", c.Config.Seed, name))
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%s_%x-%x-%x-%x-%x", host, b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

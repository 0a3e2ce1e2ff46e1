// controlplane.go: starting the control plane's components as their real binaries run them:
// kube-controller-manager (its controllers, each with its own informers and work queue, all behind
// one leader election on the Lease kube-system/kube-controller-manager) and kube-scheduler (behind
// its own election on kube-system/kube-scheduler). Several replicas of either can run at once (the
// leader-election scenarios); only the leader acts.
package sim

import (
	"context"
	"fmt"

	"kubesim/client"
	"kubesim/client/leaderelection"
	"kubesim/controllers/daemonset"
	"kubesim/controllers/deployment"
	"kubesim/controllers/garbagecollector"
	"kubesim/controllers/namespace"
	"kubesim/controllers/nodelifecycle"
	"kubesim/controllers/podgc"
	"kubesim/controllers/replicaset"
	"kubesim/controllers/serviceaccount"
	"kubesim/scheduler"
	"kubesim/scheduler/framework"
)

// ControllerManagerUser is kube-controller-manager's identity (bound to its bootstrap ClusterRole).
const ControllerManagerUser = "system:kube-controller-manager"

// ControllerManager is one kube-controller-manager replica: its elector and its controllers.
type ControllerManager struct {
	Name    string // "kube-controller-manager", or "kube-controller-manager-2" for a second replica
	Elector *leaderelection.LeaderElector
	// parts are the names the replica's components are registered under (the elector first).
	parts []string
}

// StartControllerManager adds one kube-controller-manager replica to the cluster. Its requests travel
// on the link named after it, so Partition(name) cuts the whole replica off, as a real network fault
// would.
func (c *Cluster) StartControllerManager(ctx context.Context, name string) (*ControllerManager, error) {
	cl := c.Client(ControllerManagerUser, name)
	events := func(source string) *client.EventRecorder {
		return client.NewEventRecorder(cl, source, "", c.Clock, c.Trace)
	}
	elector, err := leaderelection.NewLeaderElector(cl, c.Clock, c.Trace, leaderelection.Config{
		Lock: leaderelection.LeaseLock{Namespace: "kube-system", Name: "kube-controller-manager", Identity: name},
		Name: name,
	})
	if err != nil {
		return nil, err
	}
	if err := c.Add(ctx, elector); err != nil {
		return nil, err
	}
	// The controllers, in the order the step driver asks them for work: the ones that create objects
	// for others first, so that a learner reads the cascade top-down.
	controllers := []leaderelection.Component{
		deployment.New(cl, c.Clock, c.Trace, events("deployment-controller")),
		replicaset.New(cl, c.Clock, c.Trace, events("replicaset-controller")),
		daemonset.New(cl, c.Clock, c.Trace, events("daemonset-controller")),
		serviceaccount.New(cl, c.Clock, c.Trace),
		namespace.New(cl, c.Clock, c.Trace),
		garbagecollector.New(cl, c.Clock, c.Trace),
		nodelifecycle.New(cl, c.Clock, c.Trace, events(nodelifecycle.EventSource), nodelifecycle.Options{}),
		podgc.New(cl, c.Clock, c.Trace, podgc.Options{}),
	}
	cm := &ControllerManager{Name: name, Elector: elector, parts: []string{name}}
	for _, ctrl := range controllers {
		gated := leaderelection.Gated(elector, ctrl)
		if name != "kube-controller-manager" {
			gated = renamed{gated, name + "/" + ctrl.Name()}
		}
		if err := c.Add(ctx, gated); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		cm.parts = append(cm.parts, gated.Name())
	}
	c.controllerManagers[name] = cm
	return cm, nil
}

// renamed gives a second replica's controllers distinct names in the cluster's registry.
type renamed struct {
	leaderelection.Component
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
	elector, err := leaderelection.NewLeaderElector(cl, c.Clock, c.Trace, leaderelection.Config{
		Lock: leaderelection.LeaseLock{Namespace: "kube-system", Name: lease, Identity: name},
		Name: name,
	})
	if err != nil {
		return nil, err
	}
	s, err := scheduler.New(scheduler.Options{Name: name, Client: cl, Clock: c.Clock, Trace: c.Trace,
		Seed: c.Config.Seed, Profiles: profiles})
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

// ControllerManager returns a kube-controller-manager replica started in this cluster.
func (c *Cluster) ControllerManager(name string) (*ControllerManager, bool) {
	cm, ok := c.controllerManagers[name]
	return cm, ok
}

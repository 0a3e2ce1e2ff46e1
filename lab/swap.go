// swap.go: "swap in your own". A learner's component runs in any scenario in the place of the
// built-in one (or beside them, when nothing built in does its job), and the story it makes is
// compared, line by line, with the story the built-in components tell (storydiff.go).
//
//	WithSchedulerPlugin(name, factory, weight)      your Filter or Score plugin, in every profile
//	ReplacingSchedulerPlugin(builtin, name, factory) your plugin in the place of a default one
//	WithController(builtin, name, factory)          your controller in kube-controller-manager's list
//	WithAdmission(plugin)                           your validating admission plugin in kube-apiserver
//	WithCrashLoopBackOff(policy)                    your restart back-off in every kubelet
//	WithProbeThreshold(rule)                        your probe logic (when a result flips) in every kubelet
//	Without(name)                                   a default scheduler plugin or controller turned off
//	PlayWith(ctx, scenario, options, swaps...)      a scenario played with them: its story's events
//
// The binary that plays the scenario runs only code compiled into it: a learner's component is Go
// code in their tree, so it is played by a program built from that tree (go run ./examples/labs/swap,
// which `kubesim run NAME --with lab:LAB` runs), never loaded into a kubesim binary built before it.
package lab

import (
	"context"
	"fmt"
	"slices"

	"kubesim/apiserver"
	"kubesim/kubelet"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
	"kubesim/sim"
	"kubesim/trace"
)

// Swap is one component of yours in a cluster: in the place of a built-in one, or added beside them.
type Swap struct {
	// Kind is what it is: "scheduler plugin", "controller", "admission plugin", "kubelet back-off",
	// "kubelet probe logic".
	Kind string
	// Yours is its name in the trace ("" for a built-in one turned off); Replaces, the built-in
	// component it takes the place of ("" when it is added beside them).
	Yours, Replaces string
	// Option puts it in a cluster: lab.New(t, swap.Option), or PlayWith.
	Option Option
	// ownWords: it tells its work in its own words (a controller), so the story diff compares what
	// the rest of the cluster saw it do, not what it said (storydiff.go).
	ownWords bool
}

// String says what the swap is, for a story diff's heading.
func (s Swap) String() string {
	switch {
	case s.Yours == "":
		return fmt.Sprintf("the %s %s turned off", s.Kind, s.Replaces)
	case s.Replaces == "":
		return fmt.Sprintf("your %s %s added", s.Kind, s.Yours)
	case s.Yours == s.Replaces:
		return fmt.Sprintf("your %s in the place of the built-in one", s.Kind)
	}
	return fmt.Sprintf("your %s %s in the place of %s", s.Kind, s.Yours, s.Replaces)
}

// WithSchedulerPlugin adds your Filter or Score plugin to every profile of the default
// kube-scheduler (weight matters only for Score; 0 means 1).
func WithSchedulerPlugin(name string, factory framework.PluginFactory, weight int32) Swap {
	return Swap{Kind: "scheduler plugin", Yours: name, Option: SchedulerPlugin(name, factory, weight)}
}

// ReplacingSchedulerPlugin puts your plugin in the place of a default one (its weight kept): write
// your own TaintToleration, and see whether the taints scenario tells the same story.
func ReplacingSchedulerPlugin(builtin, name string, factory framework.PluginFactory) Swap {
	return Swap{Kind: "scheduler plugin", Yours: name, Replaces: builtin, Option: func(c *sim.Config) {
		register(c, name, factory)
		editProfiles(c, func(refs []framework.PluginRef) []framework.PluginRef {
			for i, r := range refs {
				if r.Name == builtin {
					refs[i].Name = name
				}
			}
			return refs
		})
	}}
}

// WithController runs your controller in the place of the built-in one named builtin
// ("endpoints-controller", "replicaset-controller"): at its turn in kube-controller-manager's list,
// behind the same leader election. name is what your controller traces as.
func WithController(builtin, name string, factory sim.ControllerFactory) Swap {
	return Swap{Kind: "controller", Yours: name, Replaces: builtin, ownWords: true, Option: func(c *sim.Config) {
		controllers := map[string]sim.ControllerFactory{builtin: factory}
		for k, v := range c.Controllers {
			if k != builtin {
				controllers[k] = v
			}
		}
		c.Controllers = controllers
	}}
}

// WithAdmission adds your validating admission plugin to kube-apiserver, after the built-in ones.
func WithAdmission(p apiserver.ValidatingAdmission) Swap {
	return Swap{Kind: "admission plugin", Yours: p.Name(), Option: Admission(p)}
}

// WithCrashLoopBackOff gives every kubelet your restart delay for crashed containers, in the place
// of Kubernetes' (10s, doubling, up to 5m).
func WithCrashLoopBackOff(p kubelet.BackOffPolicy) Swap {
	return Swap{Kind: "kubelet back-off", Yours: "kubelet", Replaces: "kubelet", Option: CrashLoopBackOff(p)}
}

// WithProbeThreshold gives every kubelet your rule for when a run of probe results changes a probe's
// result, in the place of Kubernetes' (kubelet.DefaultProbeThreshold: successThreshold and
// failureThreshold).
func WithProbeThreshold(rule kubelet.ProbeThreshold) Swap {
	return Swap{Kind: "kubelet probe logic", Yours: "kubelet", Replaces: "kubelet",
		Option: func(c *sim.Config) { c.ProbeThreshold = rule }}
}

// Without turns off a default scheduler plugin (as a profile's plugins.<point>.disabled does) or a
// kube-controller-manager controller (as --controllers=-NAME does): what the cluster is like when
// nobody does that job.
func Without(name string) (Swap, error) {
	var known []string
	for _, r := range plugins.DefaultPlugins() {
		known = append(known, r.Name)
	}
	if slices.Contains(known, name) {
		return Swap{Kind: "scheduler plugin", Replaces: name, Option: func(c *sim.Config) {
			editProfiles(c, func(refs []framework.PluginRef) []framework.PluginRef {
				return slices.DeleteFunc(refs, func(r framework.PluginRef) bool { return r.Name == name })
			})
		}}, nil
	}
	// A controller's name is checked when the cluster boots (sim.Config.Controllers).
	if name == "" || !isControllerName(name) {
		return Swap{}, fmt.Errorf("no default scheduler plugin or controller named %q: the plugins are %v; "+
			"a controller's name ends in -controller, or is garbage-collector or pod-garbage-collector", name, known)
	}
	return Swap{Kind: "controller", Replaces: name, Option: func(c *sim.Config) {
		controllers := map[string]sim.ControllerFactory{name: func(context.Context, *sim.Cluster) (sim.Component, error) { return nil, nil }}
		for k, v := range c.Controllers {
			if k != name {
				controllers[k] = v
			}
		}
		c.Controllers = controllers
	}}, nil
}

// isControllerName tells a kube-controller-manager controller's name by its shape.
func isControllerName(name string) bool {
	return len(name) > len("-controller") && name[len(name)-len("-controller"):] == "-controller" ||
		name == "garbage-collector" || name == "pod-garbage-collector"
}

// register adds an out-of-tree plugin to the scheduler's registry, copying the scenario's map.
func register(c *sim.Config, name string, factory framework.PluginFactory) {
	registry := framework.Registry{name: factory}
	for k, v := range c.SchedulerPlugins {
		registry[k] = v
	}
	c.SchedulerPlugins = registry
}

// editProfiles changes the plugin list of every profile of the default kube-scheduler (the default
// profile when the scenario sets none), on copies: the scenario's own Config is left as it was.
func editProfiles(c *sim.Config, edit func([]framework.PluginRef) []framework.PluginRef) {
	profiles := slices.Clone(c.SchedulerProfiles)
	if len(profiles) == 0 {
		profiles = []framework.Profile{plugins.DefaultProfile("")}
	}
	for i := range profiles {
		profiles[i].Plugins = edit(slices.Clone(profiles[i].Plugins))
	}
	c.SchedulerProfiles = profiles
}

// PlayWith plays sc with your components in the cluster (none: the built-in story), telling its
// story as o says, and returns the events of that story with the scenario's verdict (sim.Play's).
func PlayWith(ctx context.Context, sc sim.Scenario, o sim.PlayOptions, swaps ...Swap) ([]trace.Event, error) {
	var events []trace.Event
	o.Configure = func(c *sim.Config) {
		for _, s := range swaps {
			s.Option(c)
		}
	}
	o.Record = func(e trace.Event) { events = append(events, e) }
	err := sim.Play(ctx, sc, o)
	return events, err
}

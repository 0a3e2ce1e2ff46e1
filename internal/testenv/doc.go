// Package testenv is the harness the component tests share, so that each test says what it checks and
// not how a cluster is started: a simulated cluster started for one test and closed when the test
// ends, and what a controller needs to run alone in it.
//
//	Cluster(t, cfg, setups...)   start cfg's cluster for t and set it up; it closes when t ends
//	Start(cfg, setups...)        the same for an Example, which has no t: it panics on failure
//	Step, RealTime, Full         the configurations most tests use
//	ForController(c, name)       a controller's client, informer factory, clock, trace and event recorder
//	Messages, Story, StoryEvents what components wrote to the trace (Story: without routine lines)
//
// Only _test.go files import testenv (design_test.go holds that). Like sim, it wires everything: the
// store and the apiserver under the cluster, the controller manager's identity for controllers.
package testenv

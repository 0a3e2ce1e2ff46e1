// Package scenarios is kubesim's catalogue: each file tells one story of the articles (a Deployment
// created, a pod crash-looping, a node going down, a webhook timing out) on a fresh cluster, with the
// signs a learner would look for and their Chinese telling. `kubesim list` shows the catalogue,
// `kubesim describe NAME` what one teaches, `kubesim run NAME` plays it.
//
// Read next: crash_loop.go for a scenario from start to end (its Teaches text, the manifest it
// applies from manifests/, its steps and signs, ZH), helpers.go for how scenarios look at the
// cluster, and testdata/ for each story as a learner sees it.
//
// # What a scenario file holds
//
// One init registers a Scenario: a name, a one-line Summary, what it Teaches, the Cluster it needs,
// whether it is StepOnly, its Run function and its ZH catalogue (a trace.Catalog, written catalog{...}:
// each English format of its step headings and signs, mapped to the Chinese one). Run acts through
// s.Kubectl and the cluster's faults, lets the cluster work and looks at it through sim's observation
// API (Session.Until, sim.Get and sim.List, sim.FindEvent, Cluster.Tap; helpers.go wraps them for
// stories), and checks signs with s.Expect. Manifests are YAML files in manifests/, embedded.
//
// # Tests
//
// golden_test.go plays every scenario in step mode and compares its text story with
// testdata/NAME.txt (go test ./scenarios -update rewrites them); the other tests check the signs of
// groups of scenarios.
package scenarios

// Package script holds kubesim's two small languages, for a learner who writes stories without Go:
//
//   - scenario files (scenariofile.go, scenariofile_steps.go): a YAML file that names a scenario,
//     sizes its cluster and lists steps (kubectl commands, faults, etcd snapshots saved and restored,
//     waits, expectations, reachability traces), played by `kubesim run -f FILE` like a built-in scenario; examples/scenarios holds
//     examples and the reference of the format;
//   - conditions (conditions.go): one line naming a state of the cluster, as a scenario file's `wait`
//     and `expect` steps, the CLI's `--until` breakpoint and lab.Until write it: "deployment nginx
//     available", "pods -l app=nginx ready", "node node-2 unknown", "event FailedScheduling",
//     "trace client web:80 reached" (trace.go: the verdict of `kubesim net trace`).
//
// Read next: examples/scenarios/README.md for the format, then scenariofile.go.
//
// # What it promises
//
// A file is checked whole before anything runs: every mistake is reported at once, with its line and
// the fix (the nearest known key, the accepted forms). A condition reads what `kubectl get` would show,
// through sim's observation API (quiet reads, not part of the story); it is a sim.Condition, so
// sim.Cluster.Wait and Session.Until wait for it like for a condition written in Go.
//
// A scenario file's waits and expectations see only what the last step that acted (a command, a
// fault) caused: the first one after it lets the cluster react (sim.Cluster.CatchUp), and an event
// counts only if it was recorded, or recorded again, after that step; so a check cannot pass on the
// state from before the action. A wait or expectation that fails says what it saw (sim.Seen).
//
// # What it simplifies
//
// The languages cover what the catalogue's stories need, not kubectl's whole surface: no patch, no
// exec, no JSONPath; conditions know deployments, replicasets, pods, nodes, namespaces, events and
// reachability traces.
// sim does not depend on this package: the cluster's own waits are written in Go.
package script

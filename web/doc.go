// Package web is kubesim's web view: a local page that shows a run stepping, for a teacher to put on
// the wall. It is only the presentation: the run, its story and its pauses come from whoever wires it
// (cmd/kubesim's `kubesim web`, on the same step driver as `kubesim run --step`), so the page shows
// exactly the terminal's story, in the same order, and its buttons send the prompt's own commands.
//
// Read next: cmd/kubesim/web.go (the wiring) and cmd/kubesim/prompt.go (the commands).
//
// What the page shows, all from one event stream (server-sent events, /events):
//
//   - the story, line by line as it is told, and the same lines laid out in lanes, one per component
//     (kubectl, kube-apiserver, etcd, each controller, the scheduler, each kubelet): who acted, in order;
//   - at each pause, the objects as `kubectl get` shows them (Deployments, ReplicaSets, Pods, Nodes),
//     the nodes with their pods, and why the run stopped (a breakpoint's "about to ...");
//   - the answers to the prompt's commands typed in its command box (get, describe, cache, ...).
//
// Its buttons (next, section, continue, until) post the prompt's commands to /command. The page's
// files are embedded in the binary: no network, no build step, plain JavaScript.
//
// What it simplifies: one run per server, and every page open on it drives the same run.
package web

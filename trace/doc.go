// Package trace is kubesim's record of who did what, and why: the heart of its teaching value.
//
// Every meaningful action of every component is an Event: a sequence number, the time since the
// scenario started (read from the injected clock, so step mode is reproducible), the component as
// Kubernetes names it (kube-apiserver, etcd, deployment-controller, kube-scheduler, kubelet/node-2),
// the identity it acted as, the action, the object, its resourceVersion, and a one-line explanation.
// Events marked Detail are the fine grain (each gate of a routine request) that the text narrator
// hides by default.
//
// A Catalog holds a package's translations of the trace lines it records, keyed by format string
// (Event.Msgf keeps the format and its arguments for this): each component keeps one next to its
// formats, in its zh.go, and whoever wires the cluster merges them (Merge) and passes the result to
// the narrator. No table is global, so a test can hold that every narrated format has its Chinese.
//
// Read next: kubesim/narrate, which tells a trace as a story (English or Chinese), as JSON lines
// (a public contract: seq, time, component, action, object, message, and actor, resourceVersion, code
// where they apply) or as a Mermaid sequence diagram.
//
// Kubernetes has no single trace like this; its nearest relatives are the apiserver's audit log,
// events, and each component's logs. kubesim puts them on one timeline.
package trace

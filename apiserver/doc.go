// Package apiserver is kube-apiserver in miniature: the only component that reads and writes etcd,
// and the one door every other component, kubectl and a learner's test must pass through.
//
// Read next: request.go (what a call looks like), server.go (the pipeline), then one gate per file:
// authn.go, authz.go, admission.go, registry.go (validation and persistence), watchcache.go and
// watcher.go (list and watch), uncached.go (events: read from etcd, expiring on an etcd lease),
// pagination.go (lists in chunks), compaction.go (etcd's history compacted every 5 minutes),
// subresources.go (binding, eviction, scale), selfsubjectaccessreview.go and
// selfsubjectrulesreview.go (the reviews).
//
// # The pipeline
//
// Every Request runs the same gates, in Kubernetes' order, and each records its decision in the trace:
//
//  1. authenticate: the bearer token names a user and groups, or the answer is 401 Unauthorized
//     (authn.go);
//  2. authorize: system:masters is always allowed; a kubelet (system:node:<name>) is judged by the
//     Node authorizer; everyone else by RBAC, default deny, 403 Forbidden with Kubernetes' sentence
//     (authz.go, bootstrap.go for the built-in roles); a Role or binding that would grant more than
//     its author holds is refused (escalation.go);
//  3. mutating admission: defaulting, NamespaceLifecycle, ServiceAccount, DefaultTolerationSeconds,
//     Priority, then mutating webhooks with their timeout and failurePolicy (admission.go,
//     webhook.go);
//  4. validation: 422 Invalid with one cause per field path (kubesim/api/validation); just before it,
//     a Service gets its cluster IP and node ports (servicealloc.go);
//  5. validating admission: NodeRestriction (a kubelet writes only its own Node, Lease and pods),
//     ResourceQuota (403 `exceeded quota: ...`), then validating webhooks (noderestriction.go,
//     quota.go, webhook.go);
//  6. persist to etcd: create fails on an existing key (409 AlreadyExists), update and delete are
//     compare-and-swap on the object's resourceVersion (409 Conflict), a missing object is 404
//     (registry.go).
//
// # What it promises
//
//   - resourceVersion is etcd's mod revision: it strictly increases and is never stored in the value;
//   - uid and creationTimestamp are set on create, generateName gets a random suffix (seeded), and
//     generation moves only when the spec changes;
//   - the status subresource writes only status; binding sets spec.nodeName once (409 after that);
//     scale writes only replicas; eviction is a polite delete;
//   - deletion honours finalizers (deletionTimestamp first, removal when the last finalizer goes) and
//     a running pod's grace period; propagationPolicy Foreground and Orphan add their finalizers for
//     the garbage collector;
//   - dry run runs every gate and writes nothing;
//   - list and watch are served from one watch cache fed by a single etcd watch, with label and field
//     selectors, a node index for pods, current state as ADDED for watches without a resourceVersion,
//     no gap and no duplicate when resuming, bookmarks, and 410 Gone `too old resource version` once
//     the history is compacted;
//   - a list may come in chunks (limit, continue): every chunk is read at the first chunk's revision,
//     and a continue token whose revision is compacted is 410 Gone (pagination.go);
//   - SelfSubjectAccessReview and SelfSubjectRulesReview answer "may I?" and "what may I?" for the
//     user who asks, and are never stored.
//
// # What it simplifies
//
// No HTTP here (the HTTP front that the real kubectl speaks, apiserver/httpfront, is a separate layer
// over Do); tokens stand in for certificates; no API groups' versions beyond v1; a patch arrives
// already applied to the object its sender read (the HTTP front applies it) and runs as an update
// under the verb patch; no PodDisruptionBudgets; webhook servers are simulated in process (the
// AdmissionReview is handed over, not POSTed); ResourceQuota has no scopes; keys are
// /registry/<resource>/... with
// no historical exceptions; a fixed-size watch window per resource instead of Kubernetes' time-based
// one.
package apiserver

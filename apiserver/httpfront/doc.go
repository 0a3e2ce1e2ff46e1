// Package httpfront is the apiserver's HTTP face: the handler chain that turns what the real kubectl
// sends over HTTPS into the same wire.Requests every in-process component sends, and the answers back
// into what kubectl expects to read. It mirrors kube-apiserver's handler chain
// (k8s.io/apiserver/pkg/server.DefaultBuildHandlerChain) and its REST endpoints
// (k8s.io/apiserver/pkg/endpoints): request info, authentication, the resource handlers, discovery,
// Table output, Status errors, watch streams and patches.
//
// Read next: handler.go (the chain, outermost first), route.go (a URL as group, version, resource,
// namespace, name and subresource), resource.go (one verb each), then the formats: status.go,
// body.go and protobuf.go, discovery.go, openapi.go and openapi_schema.go, table.go, table_core.go and
// table_network.go, watch.go, patch.go, apply.go and fieldset.go (server-side apply), logs.go,
// metrics.go; and beside the API, audit.go (the audit trail) and control.go (the embedding program's
// /kubesim/ endpoints).
//
// # What it promises
//
//   - one code path: every resource request goes through (*apiserver.Server).Do, so authentication,
//     RBAC, admission, validation and etcd are exactly those of the in-process clients;
//   - authentication by bearer token or by a client certificate verified against the cluster's CA
//     (CN is the user, each O a group), with 401 `Unauthorized` otherwise, even for /version;
//   - failures are metav1.Status documents with the apiserver's code, reason, message and details, so
//     kubectl prints its own words (`Error from server (NotFound): pods "x" not found`);
//   - discovery in both forms (aggregated, with its exact content type, and the legacy per-group
//     documents), OpenAPI v3 documents with the kinds' schemas (`kubectl explain`), /version, /healthz,
//     /readyz, /livez (?verbose), and /metrics (Prometheus text, for system:masters);
//   - lists in chunks (limit and continue, with Kubernetes' continue tokens, metadata.continue and
//     remainingItemCount), as `kubectl get` asks for them;
//   - Table responses with kubectl's columns for the common kinds (`-o wide` included) and NAME, AGE
//     for the rest;
//   - watch streams of JSON lines; a resourceVersion too old to watch from is a 200 stream carrying one
//     ERROR event with the 410 Status, as Kubernetes answers;
//   - JSON, YAML and protobuf bodies with fieldValidation Strict, Warn (the default) and Ignore; merge, JSON and
//     strategic merge patches (kubectl apply, scale, set image, cordon); server-side apply with
//     managedFields and 409 conflicts in Kubernetes' words (kubectl apply --server-side);
//   - an audit trail, if asked for: a JSON line per request shaped as audit.k8s.io/v1 Events (user,
//     verb, requestURI, objectRef, responseStatus.code, timestamps and the latency);
//   - bad input never panics: a malformed body is 400, a body over 3 MiB is 413, an unknown path is a
//     404 Status, too many requests in flight is 429 with Retry-After, and a panic anywhere below is a
//     500 Status.
//
// # What it simplifies
//
//   - a PATCH is applied here, to the object read through Do, and the result goes back through Do
//     under the verb patch as a compare-and-swap on what was read (retried on conflict, as the real
//     patch handler retries); the read needs the get verb, which Kubernetes' patch does not;
//   - no protobuf answers (kubectl accepts JSON) and no deletecollection; /metrics has the request
//     counters only;
//   - server-side apply merges without structured-merge-diff's schemas (lists by their strategic
//     merge key, or whole) and only applies record managed fields (apply.go says what follows);
//   - the OpenAPI schemas are reflected from k8s.io/api's types, without required lists, defaults or
//     list types (openapi_schema.go);
//   - no anonymous user: a request without credentials is 401;
//   - exec, attach and port-forward answer that kubesim does not run processes; logs come from the fake
//     runtime when the cluster provides a LogSource.
//
// k8s.io/api and k8s.io/apimachinery appear here and nowhere else in kubesim: they are the wire
// formats kubectl reads (metav1.Table, metav1.Status, the discovery documents) and the schema of
// strategic merge patches. The objects themselves stay kubesim's types, whose JSON uses Kubernetes'
// field names.
package httpfront

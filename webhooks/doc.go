// Package webhooks is the admission webhook servers a cluster can run, simulated. In a real cluster a
// webhook is a Deployment behind a Service, and kube-apiserver POSTs an AdmissionReview to
// https://<service>.<namespace>.svc. kubesim has no network between the apiserver and its webhooks: a
// webhook is a Go function (Handler) served under a Service name ("default/sidecar-injector") by
// Servers, which the apiserver reaches through apiserver.WebhookBackend. A Fault makes a service hang,
// answer slowly or refuse connections, which is what the webhook-timeout scenario teaches.
//
// Two ready-made handlers show the two kinds: SidecarInjector (mutating: adds a container to every
// pod, as Istio's injector does) and RequireLabel (validating: refuses pods without a label, as a
// policy engine does).
//
// Interface: Servers (Serve, SetFault, Admit), Handler, Fault (Healthy, Hang, Refuse, Slow),
// SidecarInjector, SidecarContainer, RequireLabel. sim wires Servers into a cluster
// (Cluster.ServeWebhook, Cluster.WebhookFault); the package imports only api.
package webhooks

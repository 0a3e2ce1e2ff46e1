// faults_webhook.go: the cluster's admission webhook servers (package webhooks) and their faults
// (sim/faults.go lists the others). A webhook server that hangs, answers slowly or refuses
// connections shows at every write its configuration matches.
//
//	ServeWebhook(svc, webhooks.RequireLabel("team"))   serve a handler as the Service svc
//	WebhookFault(svc, webhooks.Hang)     the server accepts the call and never answers (webhook-timeout)
//	WebhookFault(svc, webhooks.Slow(d))  every answer takes d longer
//	WebhookFault(svc, webhooks.Refuse)   nothing listens: connection refused at once
//	WebhookFault(svc, webhooks.Healthy)  heal
package sim

import (
	"sync"

	"kubesim/webhooks"
)

// installMu serialises the lazy installation of a cluster's webhook backend.
var installMu sync.Mutex

// webhooks returns the cluster's webhook servers, installing them in the apiserver on first use.
func (c *Cluster) webhooks() *webhooks.Servers {
	installMu.Lock()
	defer installMu.Unlock()
	if w, ok := c.APIServer.WebhookBackend().(*webhooks.Servers); ok {
		return w
	}
	w := &webhooks.Servers{}
	c.APIServer.SetWebhookBackend(w)
	return w
}

// ServeWebhook starts serving h as the webhook Service service ("namespace/name").
func (c *Cluster) ServeWebhook(service string, h webhooks.Handler) {
	c.webhooks().Serve(service, h)
}

// WebhookFault breaks (or, with webhooks.Healthy, heals) the webhook server service ("namespace/name").
func (c *Cluster) WebhookFault(service string, f webhooks.Fault) {
	c.webhooks().SetFault(service, f)
	if f == webhooks.Healthy {
		c.fault("heal", "webhook service %s answers again", service)
		return
	}
	c.fault("fault", "webhook service %s %s", service, f)
}

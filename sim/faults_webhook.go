// faults_webhook.go: the admission webhook faults (sim/faults.go lists the others). A webhook server
// that hangs, answers slowly or refuses connections shows at every write its configuration matches:
// each waits for the webhook's timeout, then fails (failurePolicy Fail) or goes on without it
// (failurePolicy Ignore).
//
//	WebhookFault(svc, WebhookHang)     the server accepts the call and never answers (webhook-timeout)
//	WebhookFault(svc, WebhookSlow(d))  every answer takes d longer
//	WebhookFault(svc, WebhookRefuse)   nothing listens: connection refused at once
//	WebhookFault(svc, WebhookHealthy)  heal
package sim

import (
	"fmt"
	"time"
)

// WebhookFaultKind is what is wrong with a webhook server; the zero value (WebhookHealthy) is nothing.
type WebhookFaultKind struct {
	Hang   bool
	Refuse bool
	Slow   time.Duration
}

var (
	WebhookHealthy = WebhookFaultKind{}
	WebhookHang    = WebhookFaultKind{Hang: true}
	WebhookRefuse  = WebhookFaultKind{Refuse: true}
)

// WebhookSlow makes every answer take d longer.
func WebhookSlow(d time.Duration) WebhookFaultKind { return WebhookFaultKind{Slow: d} }

func (f WebhookFaultKind) String() string {
	switch {
	case f.Hang:
		return "hangs: it accepts every call and never answers"
	case f.Refuse:
		return "is down: nothing listens, connections are refused"
	case f.Slow > 0:
		return fmt.Sprintf("is slow: every answer takes %s longer", f.Slow)
	}
	return "is healthy"
}

// WebhookFault breaks (or, with WebhookHealthy, heals) the webhook server service ("namespace/name").
func (c *Cluster) WebhookFault(service string, f WebhookFaultKind) {
	w := c.webhooks()
	w.mu.Lock()
	if f == WebhookHealthy {
		delete(w.faults, service)
	} else {
		w.faults[service] = f
	}
	w.mu.Unlock()
	if f == WebhookHealthy {
		c.fault("heal", "webhook service %s answers again", service)
		return
	}
	c.fault("fault", "webhook service %s %s", service, f)
}

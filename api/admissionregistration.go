// admissionregistration.go: MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// (admissionregistration.k8s.io/v1), the objects that plug an admission webhook into the apiserver's
// request path. Each lists webhooks: which requests to send (rules: operations, API groups, versions,
// resources), where to send them (a Service), how long to wait (timeoutSeconds, default 10, at most
// 30) and what to do when the call fails (failurePolicy: Fail refuses the request, Ignore lets it
// through). Both kinds are cluster-scoped: one configuration intercepts every namespace.
//
// The apiserver's side (calling the webhooks) is in apiserver/webhook.go.
package api

// MutatingWebhookConfiguration registers webhooks that may change objects before they are stored
// (a sidecar injector adds a container to every pod).
type MutatingWebhookConfiguration struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Webhooks   []Webhook `json:"webhooks,omitempty"`
}

// ValidatingWebhookConfiguration registers webhooks that may only accept or refuse (a policy
// checker that requires a label).
type ValidatingWebhookConfiguration struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Webhooks   []Webhook `json:"webhooks,omitempty"`
}

// WebhooksOf is the webhooks of either configuration; ok is false for any other object.
func WebhooksOf(obj Object) (hooks []Webhook, ok bool) {
	switch o := obj.(type) {
	case *MutatingWebhookConfiguration:
		return o.Webhooks, true
	case *ValidatingWebhookConfiguration:
		return o.Webhooks, true
	}
	return nil, false
}

// Webhook is one entry of either configuration. Kubernetes has two types (MutatingWebhook, with
// reinvocationPolicy, and ValidatingWebhook); kubesim shares one, and ignores reinvocationPolicy on a
// validating webhook.
type Webhook struct {
	// Name is fully qualified, "sidecar-injector.example.com"; errors and the trace quote it.
	Name                    string               `json:"name"`
	ClientConfig            WebhookClientConfig  `json:"clientConfig"`
	Rules                   []RuleWithOperations `json:"rules,omitempty"`
	FailurePolicy           *FailurePolicyType   `json:"failurePolicy,omitempty"`
	SideEffects             *SideEffectClass     `json:"sideEffects,omitempty"`
	TimeoutSeconds          *int32               `json:"timeoutSeconds,omitempty"`
	AdmissionReviewVersions []string             `json:"admissionReviewVersions,omitempty"`
	// NamespaceSelector and ObjectSelector narrow the rules to namespaces, and to objects, whose
	// labels match; empty (the default) matches everything.
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	ObjectSelector    *LabelSelector `json:"objectSelector,omitempty"`
	// MatchPolicy Equivalent (the default) also sends requests made through another version or
	// group of a matched resource; Exact only the ones the rules name.
	MatchPolicy *MatchPolicyType `json:"matchPolicy,omitempty"`
	// ReinvocationPolicy IfNeeded calls a mutating webhook once more when a later mutating webhook
	// changed the object after it ran; Never (the default) does not.
	ReinvocationPolicy *ReinvocationPolicyType `json:"reinvocationPolicy,omitempty"`
}

// MatchPolicyType says how rules match requests made through other versions of a resource.
type MatchPolicyType string

const (
	MatchPolicyExact      MatchPolicyType = "Exact"
	MatchPolicyEquivalent MatchPolicyType = "Equivalent"
)

// ReinvocationPolicyType says whether a mutating webhook is called again after later mutations.
type ReinvocationPolicyType string

const (
	ReinvocationNever    ReinvocationPolicyType = "Never"
	ReinvocationIfNeeded ReinvocationPolicyType = "IfNeeded"
)

// WebhookClientConfig says where the webhook listens. kubesim supports only in-cluster Services (no
// url, no caBundle: there is no TLS to check).
type WebhookClientConfig struct {
	Service *ServiceReference `json:"service,omitempty"`
}

// ServiceReference names the Service in front of the webhook server.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int32  `json:"port,omitempty"` // default 443
}

// RuleWithOperations selects requests: operations on resources of some groups and versions. "*"
// matches anything in each list.
type RuleWithOperations struct {
	Operations  []OperationType `json:"operations,omitempty"`
	APIGroups   []string        `json:"apiGroups,omitempty"`
	APIVersions []string        `json:"apiVersions,omitempty"`
	Resources   []string        `json:"resources,omitempty"`
}

// OperationType is what a rule matches a request's verb against.
type OperationType string

const (
	OperationAll     OperationType = "*"
	OperationCreate  OperationType = "CREATE"
	OperationUpdate  OperationType = "UPDATE"
	OperationDelete  OperationType = "DELETE"
	OperationConnect OperationType = "CONNECT"
)

// FailurePolicyType says what a failed call (timeout, connection refused, a bad answer) means.
type FailurePolicyType string

const (
	// FailurePolicyFail refuses the request with 500 Internal error: safe, but a webhook that is
	// down blocks every matching write in the cluster.
	FailurePolicyFail FailurePolicyType = "Fail"
	// FailurePolicyIgnore admits the request as if the webhook were not there.
	FailurePolicyIgnore FailurePolicyType = "Ignore"
)

// SideEffectClass declares whether calling the webhook changes anything outside the request
// (dry-run requests only go to webhooks with None or NoneOnDryRun).
type SideEffectClass string

const (
	SideEffectClassNone         SideEffectClass = "None"
	SideEffectClassNoneOnDryRun SideEffectClass = "NoneOnDryRun"
)

// DefaultWebhookTimeoutSeconds is timeoutSeconds when unset (admissionregistration/v1 defaults).
const DefaultWebhookTimeoutSeconds int32 = 10

// webhooks applies admissionregistration/v1's defaults to each webhook: failurePolicy Fail,
// timeoutSeconds 10, port 443, matchPolicy Equivalent, empty namespace and object selectors (every
// namespace, every object), and for a mutating webhook reinvocationPolicy Never.
func (d *defaulter) webhooks(hooks []Webhook, mutating bool) {
	for i := range hooks {
		h := &hooks[i]
		if h.FailurePolicy == nil {
			h.FailurePolicy = Ptr(FailurePolicyFail)
			d.note(d.at("", "webhooks", i)+"failurePolicy", "%s", FailurePolicyFail)
		}
		if h.TimeoutSeconds == nil {
			h.TimeoutSeconds = Ptr(DefaultWebhookTimeoutSeconds)
			d.note(d.at("", "webhooks", i)+"timeoutSeconds", "%d", DefaultWebhookTimeoutSeconds)
		}
		if svc := h.ClientConfig.Service; svc != nil && svc.Port == nil {
			svc.Port = Ptr(int32(443))
			d.note(d.at("", "webhooks", i)+"clientConfig.service.port", "443")
		}
		if h.NamespaceSelector == nil {
			h.NamespaceSelector = &LabelSelector{}
		}
		if h.ObjectSelector == nil {
			h.ObjectSelector = &LabelSelector{}
		}
		if h.MatchPolicy == nil {
			h.MatchPolicy = Ptr(MatchPolicyEquivalent)
		}
		if mutating && h.ReinvocationPolicy == nil {
			h.ReinvocationPolicy = Ptr(ReinvocationNever)
		}
	}
}

func init() {
	const group = "admissionregistration.k8s.io"
	for _, r := range []*Resource{
		{Group: group, Version: "v1", Kind: "MutatingWebhookConfiguration", Name: "mutatingwebhookconfigurations",
			Singular: "mutatingwebhookconfiguration", New: func() Object { return &MutatingWebhookConfiguration{} }},
		{Group: group, Version: "v1", Kind: "ValidatingWebhookConfiguration", Name: "validatingwebhookconfigurations",
			Singular: "validatingwebhookconfiguration", New: func() Object { return &ValidatingWebhookConfiguration{} }},
	} {
		register(r)
	}
}

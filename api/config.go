// config.go: ConfigMap and Secret (core/v1), the two kinds that carry configuration into pods, and
// the references a pod makes to them: env (configMapKeyRef, secretKeyRef; fieldRef and
// resourceFieldRef read the pod itself, downward.go), envFrom (configMapRef, secretRef), and
// configMap and secret volumes (volume.go). Interface: ConfigReferences.
//
// Neither kind is read by the apiserver on a pod's behalf: a pod may name a ConfigMap that does not
// exist yet, and is accepted. It is the kubelet that looks the references up, just before it creates
// each container, and that fails the container with CreateContainerConfigError (env) or the pod's
// volumes with FailedMount while one is missing, unless the reference is optional.
package api

// ConfigMap holds non-confidential data as key-value pairs: data for UTF-8 strings, binaryData for
// bytes (base64 in JSON). A key may appear in only one of the two.
type ConfigMap struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Immutable  *bool             `json:"immutable,omitempty"`
	Data       map[string]string `json:"data,omitempty"`
	BinaryData map[string][]byte `json:"binaryData,omitempty"`
}

// SecretType says what a Secret holds; Opaque (arbitrary data) is the default.
type SecretType string

const (
	SecretTypeOpaque              SecretType = "Opaque"
	SecretTypeServiceAccountToken SecretType = "kubernetes.io/service-account-token"
	SecretTypeDockerConfigJSON    SecretType = "kubernetes.io/dockerconfigjson"
	SecretTypeTLS                 SecretType = "kubernetes.io/tls"
	SecretTypeBasicAuth           SecretType = "kubernetes.io/basic-auth"
)

// Secret holds confidential data. data is bytes (base64 in JSON, which is an encoding, not
// encryption); stringData is a write-only convenience: the apiserver merges it into data (its keys
// win) and never stores it.
type Secret struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Immutable  *bool             `json:"immutable,omitempty"`
	Data       map[string][]byte `json:"data,omitempty"`
	StringData map[string]string `json:"stringData,omitempty"`
	Type       SecretType        `json:"type,omitempty"`
}

// EnvVarSource is where an environment variable's value comes from when it has no value.
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`         // downward.go
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"` // downward.go
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty"`
}

// ConfigMapKeySelector picks one key of a ConfigMap in the pod's namespace.
type ConfigMapKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// SecretKeySelector picks one key of a Secret in the pod's namespace.
type SecretKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// EnvFromSource turns every key of a ConfigMap or Secret into an environment variable, each name
// prefixed with prefix. Variables in env override those from envFrom.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty"`
}

// ConfigMapEnvSource names the ConfigMap of an envFrom.
type ConfigMapEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// SecretEnvSource names the Secret of an envFrom.
type SecretEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// The ConfigMap kube-controller-manager's root CA publisher keeps in every namespace: the cluster's
// CA certificate under RootCAKey, which every pod's kube-api-access volume mounts as ca.crt.
const (
	RootCAConfigMap             = "kube-root-ca.crt"
	RootCAKey                   = "ca.crt"
	RootCADescriptionAnnotation = "kubernetes.io/description"
	RootCADescription           = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
		"No other usage is guaranteed across distributions of Kubernetes clusters."
)

// RootCAConfigMapFor is the root CA publisher's ConfigMap for namespace, holding rootCA (PEM).
func RootCAConfigMapFor(namespace string, rootCA []byte) *ConfigMap {
	return &ConfigMap{ObjectMeta: ObjectMeta{Name: RootCAConfigMap, Namespace: namespace,
		Annotations: map[string]string{RootCADescriptionAnnotation: RootCADescription}},
		Data: map[string]string{RootCAKey: string(rootCA)}}
}

// ConfigReference is one ConfigMap or Secret a pod names, and where.
type ConfigReference struct {
	Kind     string // "ConfigMap" or "Secret"
	Name     string
	Optional bool
}

// ConfigReferences lists the ConfigMaps and Secrets a pod's volumes and containers (init containers
// included) name, in spec order, repeats included. The Node authorizer uses it to let a kubelet read
// exactly the objects its pods refer to.
func ConfigReferences(spec *PodSpec) []ConfigReference {
	var refs []ConfigReference
	opt := func(b *bool) bool { return b != nil && *b }
	for _, v := range spec.Volumes {
		switch {
		case v.ConfigMap != nil:
			refs = append(refs, ConfigReference{"ConfigMap", v.ConfigMap.Name, opt(v.ConfigMap.Optional)})
		case v.Secret != nil:
			refs = append(refs, ConfigReference{"Secret", v.Secret.SecretName, opt(v.Secret.Optional)})
		case v.Projected != nil:
			for _, src := range v.Projected.Sources {
				switch {
				case src.ConfigMap != nil:
					refs = append(refs, ConfigReference{"ConfigMap", src.ConfigMap.Name, opt(src.ConfigMap.Optional)})
				case src.Secret != nil:
					refs = append(refs, ConfigReference{"Secret", src.Secret.Name, opt(src.Secret.Optional)})
				}
			}
		}
	}
	for _, c := range AllContainers(spec) {
		for _, e := range c.EnvFrom {
			switch {
			case e.ConfigMapRef != nil:
				refs = append(refs, ConfigReference{"ConfigMap", e.ConfigMapRef.Name, opt(e.ConfigMapRef.Optional)})
			case e.SecretRef != nil:
				refs = append(refs, ConfigReference{"Secret", e.SecretRef.Name, opt(e.SecretRef.Optional)})
			}
		}
		for _, e := range c.Env {
			switch {
			case e.ValueFrom == nil:
			case e.ValueFrom.ConfigMapKeyRef != nil:
				refs = append(refs, ConfigReference{"ConfigMap", e.ValueFrom.ConfigMapKeyRef.Name, opt(e.ValueFrom.ConfigMapKeyRef.Optional)})
			case e.ValueFrom.SecretKeyRef != nil:
				refs = append(refs, ConfigReference{"Secret", e.ValueFrom.SecretKeyRef.Name, opt(e.ValueFrom.SecretKeyRef.Optional)})
			}
		}
	}
	return refs
}

// defaults.go: SetDefaults, the values the apiserver fills in before validation (the SetDefaults_*
// functions of k8s.io/kubernetes/pkg/apis/core/v1, apps/v1, rbac/v1 and scheduling/v1). This is why
// "kubectl get -o yaml" shows fields nobody wrote: strategy, restartPolicy, schedulerName,
// imagePullPolicy, terminationGracePeriodSeconds. Each default applied is reported as one line for
// the trace, in a fixed order, so a learner sees exactly what the apiserver added.
//
// Defaults that other apiserver stages add are not here: the service account (ServiceAccount
// admission), priority (Priority admission), a namespace's "kubernetes" finalizer (the namespace
// strategy), cluster IPs and node ports (the service registry).
package api

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kubesim/api/resource"
)

// SetDefaults fills in obj's unset fields as Kubernetes defaults them and returns one line per
// default applied, such as "spec.replicas: 1". Kinds without defaults return nil.
func SetDefaults(obj Object) []string {
	d := defaulter{record: true}
	d.apply(obj)
	return d.applied
}

// ApplyDefaults is SetDefaults without the lines: what an apiserver that tells no story (no trace)
// runs on every write, without building words nobody reads.
func ApplyDefaults(obj Object) {
	var d defaulter
	d.apply(obj)
}

func (d *defaulter) apply(obj Object) {
	switch o := obj.(type) {
	case *Pod:
		d.podSpec("spec.", &o.Spec, true)
		d.requestsFromLimits(o)
		// SetDefaults_Pod, not SetDefaults_PodSpec: a workload's template keeps it unset.
		defaultPointer(d, "spec.enableServiceLinks", &o.Spec.EnableServiceLinks, true)
	case *Deployment:
		d.deployment(o)
	case *ReplicaSet:
		d.replicas("spec.replicas", &o.Spec.Replicas)
		d.podSpec("spec.template.spec.", &o.Spec.Template.Spec, false)
	case *DaemonSet:
		d.daemonSet(o)
	case *Service:
		d.service(o)
	case *Endpoints:
		for i := range o.Subsets {
			for j := range o.Subsets[i].Ports {
				d.protocol(d.at(d.at("", "subsets", i), "ports", j)+"protocol", &o.Subsets[i].Ports[j].Protocol)
			}
		}
	case *Namespace:
		d.namespace(o)
	case *Node:
		if o.Status.Allocatable == nil && o.Status.Capacity != nil {
			o.Status.Allocatable = o.Status.Capacity.DeepCopy()
			d.note("status.allocatable", "same as capacity")
		}
	case *Secret:
		d.secret(o)
	case *PriorityClass:
		defaultPointer(d, "preemptionPolicy", &o.PreemptionPolicy, PreemptLowerPriority)
	case *PersistentVolume, *PersistentVolumeClaim, *StorageClass:
		d.storage(o)
	case *RoleBinding:
		d.roleBinding(&o.RoleRef, o.Subjects)
	case *ClusterRoleBinding:
		d.roleBinding(&o.RoleRef, o.Subjects)
	case *MutatingWebhookConfiguration:
		d.webhooks(o.Webhooks, true)
	case *ValidatingWebhookConfiguration:
		d.webhooks(o.Webhooks, false)
	}
}

// defaulter applies defaults and, when it records, collects one line per default applied. Paths
// and lines are words for the trace: a defaulter that does not record builds none of them (at and
// note are cheap then, and callers whose arguments cost something to box ask d.record first).
type defaulter struct {
	record  bool
	applied []string
}

func (d *defaulter) note(path, format string, args ...any) {
	if d.record {
		d.applied = append(d.applied, path+": "+fmt.Sprintf(format, args...))
	}
}

// at is the path of element i of the list field name under prefix, with a dot for what follows:
// at("spec.", "containers", 0) is "spec.containers[0].". It is "" when d does not record.
func (d *defaulter) at(prefix, name string, i int) string {
	if !d.record {
		return ""
	}
	return prefix + name + "[" + strconv.Itoa(i) + "]."
}

// defaultValue sets the field at path to value if it is unset (the zero value) and notes it:
// "spec.restartPolicy: Always".
func defaultValue[T comparable](d *defaulter, path string, field *T, value T) {
	var zero T
	if *field == zero {
		*field = value
		if d.record {
			d.note(path, "%v", value)
		}
	}
}

// defaultPointer is defaultValue for an optional field, one that is unset when nil: "spec.replicas: 1".
func defaultPointer[T any](d *defaulter, path string, field **T, value T) {
	if *field == nil {
		*field = &value
		if d.record {
			d.note(path, "%v", value)
		}
	}
}

func (d *defaulter) replicas(path string, replicas **int32) {
	defaultPointer(d, path, replicas, 1)
}

func (d *defaulter) deployment(o *Deployment) {
	spec := &o.Spec
	d.replicas("spec.replicas", &spec.Replicas)
	typeDefaulted := spec.Strategy.Type == ""
	if typeDefaulted {
		spec.Strategy.Type = RollingUpdateDeploymentStrategyType
	}
	if spec.Strategy.Type == RollingUpdateDeploymentStrategyType {
		d.rollingUpdate("spec.strategy", typeDefaulted, &spec.Strategy.RollingUpdate, FromString("25%"), FromString("25%"))
	}
	defaultPointer(d, "spec.revisionHistoryLimit", &spec.RevisionHistoryLimit, 10)
	defaultPointer(d, "spec.progressDeadlineSeconds", &spec.ProgressDeadlineSeconds, 600)
	d.podSpec("spec.template.spec.", &spec.Template.Spec, false)
}

// rollingUpdate fills maxSurge and maxUnavailable of a Deployment's or DaemonSet's rolling update
// (the kinds share the shape but not the Go type) and notes what it set under the strategy at path:
// the whole strategy when its type was defaulted too ("spec.strategy: RollingUpdate (maxSurge 25%,
// maxUnavailable 25%)"), else the parameters it filled.
func (d *defaulter) rollingUpdate(path string, typeDefaulted bool, ru **RollingUpdateDeployment, surge, unavailable IntOrString) {
	if *ru == nil {
		*ru = &RollingUpdateDeployment{}
	}
	var set []string
	if (*ru).MaxSurge == nil {
		(*ru).MaxSurge = &surge
		set = append(set, "maxSurge "+surge.String())
	}
	if (*ru).MaxUnavailable == nil {
		(*ru).MaxUnavailable = &unavailable
		set = append(set, "maxUnavailable "+unavailable.String())
	}
	switch {
	case typeDefaulted:
		d.note(path, "RollingUpdate%s", parenthesised(set))
	case len(set) > 0:
		d.note(path+".rollingUpdate", "%s", strings.Join(set, ", "))
	}
}

func (d *defaulter) daemonSet(o *DaemonSet) {
	spec := &o.Spec
	typeDefaulted := spec.UpdateStrategy.Type == ""
	if typeDefaulted {
		spec.UpdateStrategy.Type = RollingUpdateDaemonSetStrategyType
	}
	if spec.UpdateStrategy.Type == RollingUpdateDaemonSetStrategyType {
		// RollingUpdateDaemonSet has the same fields as RollingUpdateDeployment; convert to share the code.
		ru := (*RollingUpdateDeployment)(spec.UpdateStrategy.RollingUpdate)
		d.rollingUpdate("spec.updateStrategy", typeDefaulted, &ru, FromInt32(0), FromInt32(1))
		spec.UpdateStrategy.RollingUpdate = (*RollingUpdateDaemonSet)(ru)
	}
	defaultPointer(d, "spec.revisionHistoryLimit", &spec.RevisionHistoryLimit, 10)
	d.podSpec("spec.template.spec.", &spec.Template.Spec, false)
}

func parenthesised(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return " (" + strings.Join(items, ", ") + ")"
}

// podSpec applies SetDefaults_PodSpec and the per-container defaults. prefix is the path of the
// spec: "spec." in a Pod, "spec.template.spec." in a workload. pod says the spec is a Pod's: only a
// Pod's host-network ports get a hostPort (SetDefaults_Pod), a template keeps what its author wrote.
func (d *defaulter) podSpec(prefix string, spec *PodSpec, pod bool) {
	defaultValue(d, prefix+"dnsPolicy", &spec.DNSPolicy, DNSClusterFirst)
	defaultValue(d, prefix+"restartPolicy", &spec.RestartPolicy, RestartPolicyAlways)
	defaultPointer(d, prefix+"terminationGracePeriodSeconds", &spec.TerminationGracePeriodSeconds, 30)
	defaultValue(d, prefix+"schedulerName", &spec.SchedulerName, DefaultSchedulerName)
	for i := range spec.Volumes {
		d.volume(d.at(prefix, "volumes", i), &spec.Volumes[i])
	}
	for i := range spec.InitContainers {
		d.container(d.at(prefix, "initContainers", i), &spec.InitContainers[i], pod && spec.HostNetwork)
	}
	for i := range spec.Containers {
		d.container(d.at(prefix, "containers", i), &spec.Containers[i], pod && spec.HostNetwork)
	}
}

// volume applies SetDefaults_Volume (no source means an emptyDir), the 0644 file mode of configMap,
// secret and projected volumes, a projected token's hour and a downward API file's apiVersion v1.
func (d *defaulter) volume(prefix string, v *Volume) {
	if v.VolumeSource == (VolumeSource{}) {
		v.EmptyDir = &EmptyDirVolumeSource{}
		d.note(prefix+"emptyDir", "{} (a volume without a source)")
	}
	const fileMode int32 = 0o644
	switch {
	case v.ConfigMap != nil && v.ConfigMap.DefaultMode == nil:
		v.ConfigMap.DefaultMode = Ptr(fileMode)
		d.note(prefix+"configMap.defaultMode", "420 (0644)")
	case v.Secret != nil && v.Secret.DefaultMode == nil:
		v.Secret.DefaultMode = Ptr(fileMode)
		d.note(prefix+"secret.defaultMode", "420 (0644)")
	case v.Projected != nil:
		if v.Projected.DefaultMode == nil {
			v.Projected.DefaultMode = Ptr(fileMode)
			d.note(prefix+"projected.defaultMode", "420 (0644)")
		}
		for i, src := range v.Projected.Sources {
			at := d.at(prefix+"projected.", "sources", i)
			if t := src.ServiceAccountToken; t != nil {
				defaultPointer(d, at+"serviceAccountToken.expirationSeconds", &t.ExpirationSeconds, 3600)
			}
			if src.DownwardAPI == nil {
				continue
			}
			for j, item := range src.DownwardAPI.Items {
				if item.FieldRef != nil {
					defaultValue(d, d.at(at+"downwardAPI.", "items", j)+"fieldRef.apiVersion", &item.FieldRef.APIVersion, "v1")
				}
			}
		}
	}
}

// secret applies SetDefaults_Secret (type Opaque) and folds stringData into data, as the apiserver
// does when it converts a Secret for storage: stringData is write-only and never read back.
func (d *defaulter) secret(o *Secret) {
	defaultValue(d, "type", &o.Type, SecretTypeOpaque)
	if len(o.StringData) == 0 {
		return
	}
	if o.Data == nil {
		o.Data = make(map[string][]byte, len(o.StringData))
	}
	for _, k := range slices.Sorted(maps.Keys(o.StringData)) {
		o.Data[k] = []byte(o.StringData[k])
	}
	d.note("data", "stringData merged in (%s)", strings.Join(slices.Sorted(maps.Keys(o.StringData)), ", "))
	o.StringData = nil
}

func (d *defaulter) container(prefix string, c *Container, hostNetwork bool) {
	if c.ImagePullPolicy == "" {
		tag := imageTag(c.Image)
		if tag == "latest" {
			c.ImagePullPolicy = PullAlways
		} else {
			c.ImagePullPolicy = PullIfNotPresent
		}
		if d.record {
			d.note(prefix+"imagePullPolicy", "%s (image tag %q)", c.ImagePullPolicy, tag)
		}
	}
	for i := range c.Ports {
		port := &c.Ports[i]
		at := d.at(prefix, "ports", i)
		d.protocol(at+"protocol", &port.Protocol)
		// With the host's network, the container's port is the host's port.
		if hostNetwork && port.HostPort == 0 {
			port.HostPort = port.ContainerPort
			if d.record {
				d.note(at+"hostPort", "%d (hostNetwork)", port.HostPort)
			}
		}
	}
	for i, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.APIVersion == "" {
			e.ValueFrom.FieldRef.APIVersion = "v1"
			d.note(d.at(prefix, "env", i)+"valueFrom.fieldRef.apiVersion", "v1")
		}
	}
	d.milliUnits(prefix+"resources.limits", c.Resources.Limits)
	d.milliUnits(prefix+"resources.requests", c.Resources.Requests)
	d.probe(prefix+"livenessProbe", c.LivenessProbe)
	d.probe(prefix+"readinessProbe", c.ReadinessProbe)
	d.probe(prefix+"startupProbe", c.StartupProbe)
}

// milliUnits is SetDefaults_ResourceList: every quantity finer than a milli-unit is rounded up to one
// ("100u" is 1m), in pods and templates alike.
func (d *defaulter) milliUnits(path string, list resource.ResourceList) {
	if !d.record {
		for name, q := range list {
			q.RoundUp(-3)
			list[name] = q
		}
		return
	}
	for _, name := range slices.Sorted(maps.Keys(list)) { // the lines in a fixed order
		q := list[name]
		exact := q.RoundUp(-3)
		list[name] = q
		if !exact {
			d.note(path+"."+string(name), "%s (rounded up to a milli-unit)", q.String())
		}
	}
}

// imageTag returns an image reference's tag: "latest" when it has neither tag nor digest, as
// Kubernetes reads "nginx" as "nginx:latest"; "" when it is pinned by digest only.
func imageTag(image string) string {
	name, _, digested := strings.Cut(image, "@")
	lastPart := name[strings.LastIndex(name, "/")+1:] // a registry host may have a ":port"
	if _, tag, tagged := strings.Cut(lastPart, ":"); tagged {
		return tag
	}
	if digested {
		return ""
	}
	return "latest"
}

func (d *defaulter) protocol(path string, p *Protocol) {
	defaultValue(d, path, p, ProtocolTCP)
}

func (d *defaulter) probe(path string, p *Probe) {
	if p == nil {
		return
	}
	var set []string
	for _, f := range []struct {
		name  string
		field *int32
		value int32
	}{
		{"timeoutSeconds", &p.TimeoutSeconds, 1},
		{"periodSeconds", &p.PeriodSeconds, 10},
		{"successThreshold", &p.SuccessThreshold, 1},
		{"failureThreshold", &p.FailureThreshold, 3},
	} {
		if *f.field == 0 {
			*f.field = f.value
			if d.record {
				set = append(set, fmt.Sprintf("%s %d", f.name, f.value))
			}
		}
	}
	if get := p.HTTPGet; get != nil {
		if get.Path == "" {
			get.Path = "/"
			set = append(set, "httpGet.path /") // constant: no cost when d does not record
		}
		if get.Scheme == "" {
			get.Scheme = URISchemeHTTP
			set = append(set, "httpGet.scheme HTTP")
		}
	}
	if len(set) > 0 {
		d.note(path, "%s", strings.Join(set, ", "))
	}
}

// requestsFromLimits is SetDefaults_Pod's one rule: a container with a limit but no request for a
// resource requests its limit. That is why a pod with only limits is Guaranteed. It applies to pods,
// not to templates, so a Deployment's template keeps what its author wrote.
func (d *defaulter) requestsFromLimits(pod *Pod) {
	for i := range pod.Spec.Containers {
		res := &pod.Spec.Containers[i].Resources
		if len(res.Limits) == 0 {
			continue
		}
		var set []string
		for _, name := range slices.Sorted(maps.Keys(res.Limits)) {
			if _, ok := res.Requests[name]; ok {
				continue
			}
			if res.Requests == nil {
				res.Requests = resource.ResourceList{}
			}
			limit := res.Limits[name]
			res.Requests[name] = limit
			if d.record {
				set = append(set, fmt.Sprintf("%s %s", name, limit.String()))
			}
		}
		if len(set) > 0 {
			d.note(d.at("spec.", "containers", i)+"resources.requests", "%s (from limits)", strings.Join(set, ", "))
		}
	}
}

func (d *defaulter) service(o *Service) {
	defaultValue(d, "spec.sessionAffinity", &o.Spec.SessionAffinity, ServiceAffinityNone)
	switch cfg := o.Spec.SessionAffinityConfig; o.Spec.SessionAffinity {
	case ServiceAffinityNone:
		o.Spec.SessionAffinityConfig = nil // dropped, as Kubernetes drops it
	case ServiceAffinityClientIP:
		if cfg == nil || cfg.ClientIP == nil || cfg.ClientIP.TimeoutSeconds == nil {
			o.Spec.SessionAffinityConfig = &SessionAffinityConfig{ClientIP: &ClientIPConfig{TimeoutSeconds: Ptr(DefaultClientIPServiceAffinitySeconds)}}
			d.note("spec.sessionAffinityConfig.clientIP.timeoutSeconds", "%d", DefaultClientIPServiceAffinitySeconds)
		}
	}
	defaultValue(d, "spec.type", &o.Spec.Type, ServiceTypeClusterIP)
	for i := range o.Spec.Ports {
		port := &o.Spec.Ports[i]
		at := d.at("spec.", "ports", i)
		d.protocol(at+"protocol", &port.Protocol)
		if port.TargetPort == FromInt32(0) || port.TargetPort == FromString("") {
			port.TargetPort = FromInt32(port.Port)
			d.note(at+"targetPort", "%d (same as port)", port.Port)
		}
	}
	external := o.Spec.Type == ServiceTypeNodePort || o.Spec.Type == ServiceTypeLoadBalancer
	if external {
		defaultValue(d, "spec.externalTrafficPolicy", &o.Spec.ExternalTrafficPolicy, ServiceTrafficPolicyCluster)
	}
	if o.Spec.Type != ServiceTypeExternalName {
		defaultPointer(d, "spec.internalTrafficPolicy", &o.Spec.InternalTrafficPolicy, ServiceTrafficPolicyCluster)
	}
}

func (d *defaulter) namespace(o *Namespace) {
	// Every namespace is labelled with its own name, so that selectors can pick namespaces by name.
	if o.Name != "" && o.Labels[LabelMetadataName] != o.Name {
		if o.Labels == nil {
			o.Labels = map[string]string{}
		}
		o.Labels[LabelMetadataName] = o.Name
		d.note("metadata.labels", "%s=%s", LabelMetadataName, o.Name)
	}
	defaultValue(d, "status.phase", &o.Status.Phase, NamespaceActive)
}

func (d *defaulter) roleBinding(ref *RoleRef, subjects []Subject) {
	defaultValue(d, "roleRef.apiGroup", &ref.APIGroup, RBACGroupName)
	for i := range subjects {
		s := &subjects[i]
		if s.APIGroup == "" && (s.Kind == UserKind || s.Kind == GroupKind) {
			s.APIGroup = RBACGroupName
			d.note(d.at("", "subjects", i)+"apiGroup", RBACGroupName)
		}
	}
}

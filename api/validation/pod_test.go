package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/resource"
)

func TestValidPodHasNoErrors(t *testing.T) {
	assert.Empty(t, ValidatePod(validPod()))
}

// Pod spec rules from k8s.io/kubernetes pkg/apis/core/validation, one behaviour per case.
func TestPodSpecValidation(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s *api.PodSpec)
		want   []wantErr
	}{
		{"a pod needs at least one container", func(s *api.PodSpec) { s.Containers = nil },
			[]wantErr{{"spec.containers", field.ErrorTypeRequired}}},
		{"a container needs an image", func(s *api.PodSpec) { s.Containers[0].Image = "" },
			[]wantErr{{"spec.containers[0].image", field.ErrorTypeRequired}}},
		{"a container needs a name", func(s *api.PodSpec) { s.Containers[0].Name = "" },
			[]wantErr{{"spec.containers[0].name", field.ErrorTypeRequired}}},
		{"a container name is a DNS-1123 label", func(s *api.PodSpec) { s.Containers[0].Name = "Web_1" },
			[]wantErr{{"spec.containers[0].name", field.ErrorTypeInvalid}}},
		{"container names are unique", func(s *api.PodSpec) { s.Containers = append(s.Containers, s.Containers[0]) },
			[]wantErr{{"spec.containers[1].name", field.ErrorTypeDuplicate}}},
		{"imagePullPolicy is one of three", func(s *api.PodSpec) { s.Containers[0].ImagePullPolicy = "Sometimes" },
			[]wantErr{{"spec.containers[0].imagePullPolicy", field.ErrorTypeNotSupported}}},
		{"containerPort is required", func(s *api.PodSpec) { s.Containers[0].Ports[0].ContainerPort = 0 },
			[]wantErr{{"spec.containers[0].ports[0].containerPort", field.ErrorTypeRequired}}},
		{"containerPort is at most 65535", func(s *api.PodSpec) { s.Containers[0].Ports[0].ContainerPort = 70000 },
			[]wantErr{{"spec.containers[0].ports[0].containerPort", field.ErrorTypeInvalid}}},
		{"hostPort is at most 65535", func(s *api.PodSpec) { s.Containers[0].Ports[0].HostPort = 70000 },
			[]wantErr{{"spec.containers[0].ports[0].hostPort", field.ErrorTypeInvalid}}},
		{"protocol is TCP, UDP or SCTP", func(s *api.PodSpec) { s.Containers[0].Ports[0].Protocol = "HTTP" },
			[]wantErr{{"spec.containers[0].ports[0].protocol", field.ErrorTypeNotSupported}}},
		{"port names are IANA service names", func(s *api.PodSpec) { s.Containers[0].Ports[0].Name = "http--alt" },
			[]wantErr{{"spec.containers[0].ports[0].name", field.ErrorTypeInvalid}}},
		{"two containers may not claim one host port", func(s *api.PodSpec) {
			s.Containers[0].Ports[0].HostPort = 8080
			c := s.Containers[0]
			c.Name = "sidecar"
			c.Ports = []api.ContainerPort{{ContainerPort: 81, HostPort: 8080, Protocol: api.ProtocolTCP}}
			s.Containers = append(s.Containers, c)
		}, []wantErr{{"spec.containers[1].ports[0].hostPort", field.ErrorTypeDuplicate}}},
		{"on the host network hostPort equals containerPort", func(s *api.PodSpec) {
			s.HostNetwork = true
			s.Containers[0].Ports[0].HostPort = 8080
		}, []wantErr{{"spec.containers[0].ports[0].hostPort", field.ErrorTypeInvalid}}},
		{"an env var name may not contain '='", func(s *api.PodSpec) { s.Containers[0].Env = []api.EnvVar{{Name: "A=B"}} },
			[]wantErr{{"spec.containers[0].env[0].name", field.ErrorTypeInvalid}}},
		{"a request may not exceed its limit", func(s *api.PodSpec) {
			s.Containers[0].Resources.Requests[resource.ResourceCPU] = resource.MustParse("1")
		}, []wantErr{{"spec.containers[0].resources.requests", field.ErrorTypeInvalid}}},
		{"quantities may not be negative", func(s *api.PodSpec) {
			s.Containers[0].Resources.Limits[resource.ResourceMemory] = resource.MustParse("-1Mi")
		}, []wantErr{{"spec.containers[0].resources.limits[memory]", field.ErrorTypeInvalid}}},
		{"pods is not a container resource", func(s *api.PodSpec) {
			s.Containers[0].Resources.Limits["pods"] = resource.MustParse("1")
		}, []wantErr{{"spec.containers[0].resources.limits[pods]", field.ErrorTypeInvalid}}},
		{"an extended resource request must equal its limit", func(s *api.PodSpec) {
			s.Containers[0].Resources.Requests["example.com/gpu"] = resource.MustParse("1")
			s.Containers[0].Resources.Limits["example.com/gpu"] = resource.MustParse("2")
		}, []wantErr{{"spec.containers[0].resources.requests", field.ErrorTypeInvalid}}},
		{"restartPolicy is Always, OnFailure or Never", func(s *api.PodSpec) { s.RestartPolicy = "Sometimes" },
			[]wantErr{{"spec.restartPolicy", field.ErrorTypeNotSupported}}},
		{"restartPolicy is required once defaulted", func(s *api.PodSpec) { s.RestartPolicy = "" },
			[]wantErr{{"spec.restartPolicy", field.ErrorTypeRequired}}},
		{"dnsPolicy is a known policy", func(s *api.PodSpec) { s.DNSPolicy = "Google" },
			[]wantErr{{"spec.dnsPolicy", field.ErrorTypeNotSupported}}},
		{"nodeSelector is a label map", func(s *api.PodSpec) { s.NodeSelector = map[string]string{"disk": "fast ssd"} },
			[]wantErr{{"spec.nodeSelector", field.ErrorTypeInvalid}}},
		{"nodeName is a DNS subdomain", func(s *api.PodSpec) { s.NodeName = "Node_1" },
			[]wantErr{{"spec.nodeName", field.ErrorTypeInvalid}}},
		{"hostname is a DNS label: no dots", func(s *api.PodSpec) { s.Hostname = "db-0.db" },
			[]wantErr{{"spec.hostname", field.ErrorTypeInvalid}}},
		{"subdomain is a DNS label", func(s *api.PodSpec) { s.Subdomain = "DB" },
			[]wantErr{{"spec.subdomain", field.ErrorTypeInvalid}}},
		{"preemptionPolicy is a known policy", func(s *api.PodSpec) { s.PreemptionPolicy = api.Ptr(api.PreemptionPolicy("Always")) },
			[]wantErr{{"spec.preemptionPolicy", field.ErrorTypeNotSupported}}},
		{"a probe needs a handler", func(s *api.PodSpec) { s.Containers[0].ReadinessProbe = &api.Probe{} },
			[]wantErr{{"spec.containers[0].readinessProbe", field.ErrorTypeRequired}}},
		{"a probe has one handler", func(s *api.PodSpec) {
			s.Containers[0].ReadinessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{
				Exec:      &api.ExecAction{Command: []string{"true"}},
				TCPSocket: &api.TCPSocketAction{Port: api.FromInt32(80)},
			}}
		}, []wantErr{{"spec.containers[0].readinessProbe.tcpSocket", field.ErrorTypeForbidden}}},
		{"an httpGet probe needs a path, a port and a scheme", func(s *api.PodSpec) {
			s.Containers[0].ReadinessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{}}}
		}, []wantErr{
			{"spec.containers[0].readinessProbe.httpGet.path", field.ErrorTypeRequired},
			{"spec.containers[0].readinessProbe.httpGet.port", field.ErrorTypeInvalid},
			{"spec.containers[0].readinessProbe.httpGet.scheme", field.ErrorTypeNotSupported},
		}},
		{"an exec probe needs a command", func(s *api.PodSpec) {
			s.Containers[0].LivenessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{Exec: &api.ExecAction{}}, SuccessThreshold: 1}
		}, []wantErr{{"spec.containers[0].livenessProbe.exec.command", field.ErrorTypeRequired}}},
		{"a liveness probe succeeds once", func(s *api.PodSpec) {
			s.Containers[0].LivenessProbe = &api.Probe{
				ProbeHandler:     api.ProbeHandler{TCPSocket: &api.TCPSocketAction{Port: api.FromString("http")}},
				SuccessThreshold: 2,
			}
		}, []wantErr{{"spec.containers[0].livenessProbe.successThreshold", field.ErrorTypeInvalid}}},
		{"probe timings are not negative", func(s *api.PodSpec) {
			s.Containers[0].ReadinessProbe = &api.Probe{
				ProbeHandler:  api.ProbeHandler{TCPSocket: &api.TCPSocketAction{Port: api.FromInt32(80)}},
				PeriodSeconds: -1,
			}
		}, []wantErr{{"spec.containers[0].readinessProbe.periodSeconds", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := validPodSpec()
			tc.mutate(&spec)
			requireErrors(t, ValidatePodSpec(&spec, field.NewPath("spec")), tc.want...)
		})
	}
}

func TestPodSpecMessages(t *testing.T) {
	spec := validPodSpec()
	spec.RestartPolicy = "Sometimes"
	spec.Containers[0].Resources.Requests[resource.ResourceCPU] = resource.MustParse("1")
	spec.Containers[0].Ports[0].Protocol = "HTTP"
	errs := ValidatePodSpec(&spec, field.NewPath("spec"))
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	assert.ElementsMatch(t, []string{
		`spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`,
		`spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m`,
		`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
	}, msgs)
}

// Scheduling constraints: tolerations, affinity and topology spread.
func TestPodSchedulingConstraintValidation(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s *api.PodSpec)
		want   []wantErr
	}{
		{"Exists with a value", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "gpu", Operator: api.TolerationOpExists, Value: "yes"}}
		}, []wantErr{{"spec.tolerations[0].operator", field.ErrorTypeInvalid}}},
		{"an empty key without Exists", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Operator: api.TolerationOpEqual}}
		}, []wantErr{{"spec.tolerations[0].operator", field.ErrorTypeInvalid}}},
		{"tolerationSeconds without NoExecute", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "k", Effect: api.TaintEffectNoSchedule, TolerationSeconds: api.Ptr[int64](60)}}
		}, []wantErr{{"spec.tolerations[0].effect", field.ErrorTypeInvalid}}},
		{"an unknown effect", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "k", Effect: "NoRun"}}
		}, []wantErr{{"spec.tolerations[0].effect", field.ErrorTypeNotSupported}}},
		{"an unknown operator", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "k", Operator: "Gt"}}
		}, []wantErr{{"spec.tolerations[0].operator", field.ErrorTypeNotSupported}}},
		{"the not-ready toleration the admission plugin adds is valid", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists,
				Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Ptr[int64](300)}}
		}, nil},
		{"required node affinity with no terms", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{}}}
		}, []wantErr{{"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", field.ErrorTypeRequired}}},
		{"Gt with two values", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{
					{Key: "cores", Operator: api.NodeSelectorOpGt, Values: []string{"4", "8"}}}}}}}}
		}, []wantErr{{"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values", field.ErrorTypeRequired}}},
		{"In without values and an unknown operator", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
				{Weight: 0, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
					{Key: "disk", Operator: api.NodeSelectorOpIn}, {Key: "disk", Operator: "Like"}}}}}}}
		}, []wantErr{
			{"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight", field.ErrorTypeInvalid},
			{"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values", field.ErrorTypeRequired},
			{"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[1].operator", field.ErrorTypeInvalid},
		}},
		{"matchFields only knows metadata.name", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
					{Key: "metadata.uid", Operator: api.NodeSelectorOpIn, Values: []string{"x"}}}}}}}}
		}, []wantErr{{"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key", field.ErrorTypeInvalid}}},
		{"pod anti-affinity without a topology key", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
				{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}}}
		}, []wantErr{
			{"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", field.ErrorTypeRequired},
			// As in Kubernetes, the empty key also fails the label key rule twice (empty, and not matching).
			{"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", field.ErrorTypeInvalid},
			{"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", field.ErrorTypeInvalid},
		}},
		{"pod affinity with a bad selector operator and weight", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
				{Weight: 101, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: api.LabelHostname,
					LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Equals"}}}}}}}}
		}, []wantErr{
			{"spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight", field.ErrorTypeInvalid},
			{"spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchExpressions[0].operator", field.ErrorTypeInvalid},
		}},
		{"maxSkew 0 and an unknown action", func(s *api.PodSpec) {
			s.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 0, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: "Ignore"}}
		}, []wantErr{
			{"spec.topologySpreadConstraints[0].maxSkew", field.ErrorTypeInvalid},
			{"spec.topologySpreadConstraints[0].whenUnsatisfiable", field.ErrorTypeNotSupported},
		}},
		{"a spread constraint without topology key, repeated", func(s *api.PodSpec) {
			c := api.TopologySpreadConstraint{MaxSkew: 1, WhenUnsatisfiable: api.DoNotSchedule}
			s.TopologySpreadConstraints = []api.TopologySpreadConstraint{c, c}
		}, []wantErr{
			{"spec.topologySpreadConstraints[0].topologyKey", field.ErrorTypeRequired},
			{"spec.topologySpreadConstraints[1].topologyKey", field.ErrorTypeRequired},
			{"spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}", field.ErrorTypeDuplicate},
		}},
		{"minDomains with ScheduleAnyway", func(s *api.PodSpec) {
			s.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone,
				WhenUnsatisfiable: api.ScheduleAnyway, MinDomains: api.Ptr[int32](2)}}
		}, []wantErr{{"spec.topologySpreadConstraints[0].minDomains", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := validPodSpec()
			tc.mutate(&spec)
			requireErrors(t, ValidatePodSpec(&spec, field.NewPath("spec")), tc.want...)
		})
	}
}

func TestSchedulingConstraintMessages(t *testing.T) {
	spec := validPodSpec()
	spec.Tolerations = []api.Toleration{{Key: "gpu", Operator: api.TolerationOpExists, Value: "yes"}}
	spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{}}}}
	errs := ValidatePodSpec(&spec, field.NewPath("spec"))
	assert.Equal(t, `spec.tolerations[0].operator: Invalid value: {"key":"gpu","operator":"Exists","value":"yes"}: value must be empty when `+"`operator`"+` is 'Exists'`,
		requireError(t, errs, "spec.tolerations[0].operator", field.ErrorTypeInvalid).Error())
	assert.Equal(t, "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty",
		requireError(t, errs, "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", field.ErrorTypeRequired).Error())
}

// On the host network a Pod's hostPort must equal its containerPort; a template may leave it 0, since
// only the Pod made from it gets the default (validatePodHostNetworkDeps, ResourceIsPod).
func TestHostNetworkTemplateMayLeaveHostPortUnset(t *testing.T) {
	template := api.PodTemplateSpec{Spec: validPodSpec()}
	template.Spec.HostNetwork = true
	template.Spec.Containers[0].Ports[0].HostPort = 0
	assert.Empty(t, ValidatePodTemplateSpec(&template, field.NewPath("spec", "template")))
	assert.NotEmpty(t, ValidatePodSpec(&template.Spec, field.NewPath("spec")), "a Pod's must be set")
	template.Spec.Containers[0].Ports[0].HostPort = 9090
	assert.Equal(t, "spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 9090: must match `containerPort` when `hostNetwork` is true",
		requireError(t, ValidatePodTemplateSpec(&template, field.NewPath("spec", "template")), "spec.template.spec.containers[0].ports[0].hostPort", field.ErrorTypeInvalid).Error())
}

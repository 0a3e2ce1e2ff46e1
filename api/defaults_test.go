package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api/resource"
)

func TestSetDefaultsOfTheSeedDeployment(t *testing.T) {
	objs, err := Decode([]byte(seedDeployment))
	require.NoError(t, err)
	d := objs[0].(*Deployment)

	applied := SetDefaults(d)
	assert.Equal(t, []string{
		"spec.strategy: RollingUpdate (maxSurge 25%, maxUnavailable 25%)",
		"spec.revisionHistoryLimit: 10",
		"spec.progressDeadlineSeconds: 600",
		"spec.template.spec.dnsPolicy: ClusterFirst",
		"spec.template.spec.restartPolicy: Always",
		"spec.template.spec.terminationGracePeriodSeconds: 30",
		"spec.template.spec.schedulerName: default-scheduler",
		`spec.template.spec.containers[0].imagePullPolicy: IfNotPresent (image tag "1.25")`,
		"spec.template.spec.containers[0].ports[0].protocol: TCP",
	}, applied)

	assert.Equal(t, Ptr[int32](3), d.Spec.Replicas, "replicas was set, so not defaulted")
	assert.Equal(t, &RollingUpdateDeployment{MaxUnavailable: Ptr(FromString("25%")), MaxSurge: Ptr(FromString("25%"))}, d.Spec.Strategy.RollingUpdate)
	assert.Equal(t, ProtocolTCP, d.Spec.Template.Spec.Containers[0].Ports[0].Protocol)

	assert.Empty(t, SetDefaults(d), "defaulting twice changes nothing")
}

func TestSetDefaultsReplicasAndPartialStrategy(t *testing.T) {
	d := &Deployment{Spec: DeploymentSpec{Strategy: DeploymentStrategy{
		Type:          RollingUpdateDeploymentStrategyType,
		RollingUpdate: &RollingUpdateDeployment{MaxSurge: Ptr(FromInt32(1))},
	}}}
	applied := SetDefaults(d)
	assert.Equal(t, []string{
		"spec.replicas: 1",
		"spec.strategy.rollingUpdate: maxUnavailable 25%",
		"spec.revisionHistoryLimit: 10",
		"spec.progressDeadlineSeconds: 600",
	}, applied[:4])

	recreate := &Deployment{Spec: DeploymentSpec{Strategy: DeploymentStrategy{Type: RecreateDeploymentStrategyType}}}
	SetDefaults(recreate)
	assert.Nil(t, recreate.Spec.Strategy.RollingUpdate, "Recreate has no rolling update parameters")
}

func TestImagePullPolicyDefaultsByTag(t *testing.T) {
	for image, want := range map[string]PullPolicy{
		"nginx":                            PullAlways,
		"nginx:latest":                     PullAlways,
		"nginx:1.25":                       PullIfNotPresent,
		"registry.local:5000/team/app":     PullAlways,
		"registry.local:5000/team/app:v2":  PullIfNotPresent,
		"nginx@sha256:0123456789abcdef":    PullIfNotPresent,
		"nginx:latest@sha256:0123456789ab": PullAlways,
	} {
		pod := &Pod{Spec: PodSpec{Containers: []Container{{Name: "c", Image: image}}}}
		SetDefaults(pod)
		assert.Equal(t, want, pod.Spec.Containers[0].ImagePullPolicy, image)
	}
}

func TestSetDefaultsOfAPod(t *testing.T) {
	pod := &Pod{Spec: PodSpec{
		HostNetwork: true,
		Containers: []Container{{
			Name: "c", Image: "busybox:1.36", ImagePullPolicy: PullNever,
			Ports: []ContainerPort{{ContainerPort: 9100, Protocol: ProtocolUDP}},
			Resources: ResourceRequirements{
				Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m")},
				Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse("200m"), resource.ResourceMemory: resource.MustParse("64Mi")},
			},
			ReadinessProbe: &Probe{ProbeHandler: ProbeHandler{HTTPGet: &HTTPGetAction{Port: FromInt32(9100)}}, PeriodSeconds: 5},
		}},
	}}
	assert.Equal(t, []string{
		"spec.dnsPolicy: ClusterFirst",
		"spec.restartPolicy: Always",
		"spec.terminationGracePeriodSeconds: 30",
		"spec.schedulerName: default-scheduler",
		"spec.containers[0].ports[0].hostPort: 9100 (hostNetwork)",
		"spec.containers[0].readinessProbe: timeoutSeconds 1, successThreshold 1, failureThreshold 3, httpGet.path /, httpGet.scheme HTTP",
		"spec.containers[0].resources.requests: memory 64Mi (from limits)",
		"spec.enableServiceLinks: true",
	}, SetDefaults(pod))
	require.NotNil(t, pod.Spec.EnableServiceLinks)
	assert.True(t, *pod.Spec.EnableServiceLinks, "a Pod links its namespace's Services unless it says otherwise")
	c := pod.Spec.Containers[0]
	assert.Equal(t, resource.MustParse("100m"), c.Resources.Requests[resource.ResourceCPU], "an explicit request stays")
	assert.Equal(t, resource.MustParse("64Mi"), c.Resources.Requests[resource.ResourceMemory])
	assert.Equal(t, int32(5), c.ReadinessProbe.PeriodSeconds)
}

func TestTemplatesDoNotGetRequestsFromLimits(t *testing.T) {
	rs := &ReplicaSet{Spec: ReplicaSetSpec{Template: PodTemplateSpec{Spec: PodSpec{Containers: []Container{{
		Name: "c", Image: "app:v1", ImagePullPolicy: PullIfNotPresent,
		Resources: ResourceRequirements{Limits: resource.ResourceList{resource.ResourceCPU: resource.MustParse("1")}},
	}}}}}}
	SetDefaults(rs)
	assert.Equal(t, Ptr[int32](1), rs.Spec.Replicas)
	assert.Nil(t, rs.Spec.Template.Spec.Containers[0].Resources.Requests)
}

func TestSetDefaultsOfOtherKinds(t *testing.T) {
	svc := &Service{Spec: ServiceSpec{Ports: []ServicePort{{Port: 80}, {Port: 443, TargetPort: FromString("https")}}}}
	assert.Equal(t, []string{
		"spec.sessionAffinity: None",
		"spec.type: ClusterIP",
		"spec.ports[0].protocol: TCP",
		"spec.ports[0].targetPort: 80 (same as port)",
		"spec.ports[1].protocol: TCP",
		"spec.internalTrafficPolicy: Cluster",
	}, SetDefaults(svc))
	assert.Equal(t, FromString("https"), svc.Spec.Ports[1].TargetPort)

	ns := &Namespace{ObjectMeta: ObjectMeta{Name: "shop"}}
	assert.Equal(t, []string{"metadata.labels: kubernetes.io/metadata.name=shop", "status.phase: Active"}, SetDefaults(ns))

	ds := &DaemonSet{}
	assert.Equal(t, []string{
		"spec.updateStrategy: RollingUpdate (maxSurge 0, maxUnavailable 1)",
		"spec.revisionHistoryLimit: 10",
	}, SetDefaults(ds)[:2])

	node := &Node{Status: NodeStatus{Capacity: resource.ResourceList{resource.ResourcePods: resource.MustParse("110")}}}
	assert.Equal(t, []string{"status.allocatable: same as capacity"}, SetDefaults(node))
	assert.Equal(t, node.Status.Capacity, node.Status.Allocatable)

	rb := &RoleBinding{RoleRef: RoleRef{Kind: "Role", Name: "r"}, Subjects: []Subject{
		{Kind: UserKind, Name: "jane"}, {Kind: ServiceAccountKind, Name: "default", Namespace: "default"},
	}}
	assert.Equal(t, []string{
		"roleRef.apiGroup: rbac.authorization.k8s.io",
		"subjects[0].apiGroup: rbac.authorization.k8s.io",
	}, SetDefaults(rb))

	pc := &PriorityClass{Value: 1000}
	assert.Equal(t, []string{"preemptionPolicy: PreemptLowerPriority"}, SetDefaults(pc))

	assert.Nil(t, SetDefaults(&Lease{}))
}

// SetDefaults_ResourceList rounds every quantity up to a milli-unit, in templates as in pods; and only
// a Pod's host-network ports get a hostPort (SetDefaults_Pod), so a template keeps what its author
// wrote, as a real apiserver stores it (difftest/deployment compares the pod-template-hash after both).
func TestTemplateDefaultsRoundToMilliUnitsAndLeaveHostPorts(t *testing.T) {
	rs := &ReplicaSet{Spec: ReplicaSetSpec{Template: PodTemplateSpec{Spec: PodSpec{HostNetwork: true, Containers: []Container{{
		Name: "c", Image: "busybox:1.36", ImagePullPolicy: PullNever,
		Ports: []ContainerPort{{ContainerPort: 9100, Protocol: ProtocolTCP}},
		Resources: ResourceRequirements{
			Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse("1.0001")},
			Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100u"), resource.ResourceMemory: resource.MustParse("1500m")},
		},
	}}}}}}
	notes := SetDefaults(rs)
	assert.Contains(t, notes, "spec.template.spec.containers[0].resources.limits.cpu: 1001m (rounded up to a milli-unit)")
	assert.Contains(t, notes, "spec.template.spec.containers[0].resources.requests.cpu: 1m (rounded up to a milli-unit)")
	c := rs.Spec.Template.Spec.Containers[0]
	assert.Equal(t, "1001m", c.Resources.Limits.Cpu().String())
	assert.Equal(t, "1m", c.Resources.Requests.Cpu().String())
	assert.Equal(t, "1500m", c.Resources.Requests.Memory().String(), "already milli-units: unchanged")
	assert.Equal(t, int32(0), c.Ports[0].HostPort)
}

// ApplyDefaults, what an untraced apiserver runs, applies exactly the defaults SetDefaults applies:
// only the lines are left out.
func TestApplyDefaultsAppliesWhatSetDefaultsApplies(t *testing.T) {
	objects := func() []Object {
		deploy, err := Decode([]byte(seedDeployment))
		require.NoError(t, err)
		probe := &Probe{ProbeHandler: ProbeHandler{HTTPGet: &HTTPGetAction{Port: FromInt32(80)}}}
		pod := &Pod{Spec: PodSpec{HostNetwork: true,
			Volumes: []Volume{{Name: "scratch"}, {Name: "cfg", VolumeSource: VolumeSource{ConfigMap: &ConfigMapVolumeSource{}}},
				{Name: "proj", VolumeSource: VolumeSource{Projected: &ProjectedVolumeSource{Sources: []VolumeProjection{
					{ServiceAccountToken: &ServiceAccountTokenProjection{Path: "token"}},
					{DownwardAPI: &DownwardAPIProjection{Items: []DownwardAPIVolumeFile{{Path: "ns", FieldRef: &ObjectFieldSelector{FieldPath: "metadata.namespace"}}}}},
				}}}}},
			InitContainers: []Container{{Name: "init", Image: "busybox"}},
			Containers: []Container{{
				Name: "c", Image: "nginx:1.25", Ports: []ContainerPort{{ContainerPort: 80}},
				Env: []EnvVar{{Name: "NODE", ValueFrom: &EnvVarSource{FieldRef: &ObjectFieldSelector{FieldPath: "spec.nodeName"}}}},
				Resources: ResourceRequirements{
					Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse("1.0001"), resource.ResourceMemory: resource.MustParse("64Mi")},
					Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100u")},
				},
				LivenessProbe: probe, ReadinessProbe: &Probe{}, StartupProbe: &Probe{PeriodSeconds: 3},
			}},
		}}
		return []Object{deploy[0], pod,
			&ReplicaSet{Spec: ReplicaSetSpec{Template: PodTemplateSpec{Spec: PodSpec{Containers: []Container{{Name: "c", Image: "app"}}}}}},
			&DaemonSet{},
			&Service{Spec: ServiceSpec{Type: ServiceTypeNodePort, SessionAffinity: ServiceAffinityClientIP, Ports: []ServicePort{{Port: 80}}}},
			&Endpoints{Subsets: []EndpointSubset{{Ports: []EndpointPort{{Port: 80}}}}},
			&Namespace{ObjectMeta: ObjectMeta{Name: "shop"}},
			&Node{Status: NodeStatus{Capacity: resource.ResourceList{resource.ResourcePods: resource.MustParse("110")}}},
			&Secret{StringData: map[string]string{"b": "2", "a": "1"}},
			&PriorityClass{}, &PersistentVolume{}, &PersistentVolumeClaim{}, &StorageClass{},
			&RoleBinding{Subjects: []Subject{{Kind: UserKind, Name: "jane"}}},
			&ClusterRoleBinding{Subjects: []Subject{{Kind: GroupKind, Name: "devs"}}},
			&MutatingWebhookConfiguration{Webhooks: []Webhook{{Name: "m", ClientConfig: WebhookClientConfig{Service: &ServiceReference{Name: "s"}}}}},
			&ValidatingWebhookConfiguration{Webhooks: []Webhook{{Name: "v"}}},
		}
	}
	told, quiet := objects(), objects()
	for i := range told {
		notes := SetDefaults(told[i])
		ApplyDefaults(quiet[i])
		assert.Equal(t, told[i], quiet[i], "%T", told[i])
		assert.NotEmpty(t, notes, "%T: an object that shows defaulting at work", told[i])
	}
}

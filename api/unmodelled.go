// unmodelled.go: the fields of Kubernetes v1.34's schema that kubesim's types leave out. Interface:
// UnmodelledFields.
//
// A real manifest must load. Kubernetes' strict decoding rejects only what is not in the schema (a
// typo such as "imagePullPolcy"); a field that is in the schema but that kubesim does not simulate
// (initContainers, volumes, a security context) is accepted, dropped, and named in a warning, so the
// learner knows the simulation ignores it. The lists below are per Go type, so that a field is known
// wherever its type appears (a PodSpec inside a Deployment's template has the same fields as a Pod's).
// difftest's TestEveryKubernetesFieldIsModelledOrListed walks k8s.io/api's types and fails when a
// field is neither in kubesim's type nor listed here, so the lists stay complete as both sides change.
package api

import "reflect"

// unmodelled maps a kubesim type to the JSON names of the Kubernetes fields it does not have.
var unmodelled = map[reflect.Type][]string{
	// metadata
	reflect.TypeFor[ObjectMeta](): {"selfLink"},

	// pods
	reflect.TypeFor[PodSpec](): {"activeDeadlineSeconds", "dnsConfig",
		"ephemeralContainers", "hostAliases", "hostIPC", "hostPID", "hostUsers",
		"hostnameOverride", "os", "overhead", "readinessGates", "resourceClaims", "resources",
		"runtimeClassName", "schedulingGates", "securityContext", "serviceAccount", "setHostnameAsFQDN",
		"shareProcessNamespace"},
	reflect.TypeFor[Container](): {"lifecycle", "resizePolicy", "restartPolicy", "restartPolicyRules",
		"securityContext", "stdin", "stdinOnce", "terminationMessagePath", "terminationMessagePolicy", "tty",
		"volumeDevices", "workingDir"},
	reflect.TypeFor[EnvVarSource](): {"fileKeyRef"},
	reflect.TypeFor[Volume](): {"awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "csi",
		"downwardAPI", "ephemeral", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs",
		"hostPath", "image", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte",
		"rbd", "scaleIO", "storageos", "vsphereVolume"},
	reflect.TypeFor[VolumeProjection]():         {"clusterTrustBundle", "podCertificate"},
	reflect.TypeFor[VolumeMount]():              {"mountPropagation", "recursiveReadOnly", "subPathExpr"},
	reflect.TypeFor[ResourceRequirements]():     {"claims"},
	reflect.TypeFor[Probe]():                    {"grpc", "terminationGracePeriodSeconds"},
	reflect.TypeFor[HTTPGetAction]():            {"httpHeaders"},
	reflect.TypeFor[PodAffinityTerm]():          {"matchLabelKeys", "mismatchLabelKeys", "namespaceSelector"},
	reflect.TypeFor[TopologySpreadConstraint](): {"matchLabelKeys", "nodeAffinityPolicy", "nodeTaintsPolicy"},
	reflect.TypeFor[PodStatus](): {"ephemeralContainerStatuses", "extendedResourceClaimStatus", "hostIPs",
		"observedGeneration", "resize", "resourceClaimStatuses"},
	reflect.TypeFor[PodCondition](): {"observedGeneration"},
	reflect.TypeFor[ContainerStatus](): {"allocatedResources", "allocatedResourcesStatus", "resources",
		"stopSignal", "user", "volumeMounts"},

	// workloads
	reflect.TypeFor[DeploymentStatus](): {"terminatingReplicas"},
	reflect.TypeFor[ReplicaSetStatus](): {"terminatingReplicas"},
	reflect.TypeFor[DaemonSetStatus]():  {"collisionCount", "conditions"},

	// nodes
	reflect.TypeFor[NodeSpec](): {"configSource", "externalID", "providerID"},
	reflect.TypeFor[NodeStatus](): {"config", "daemonEndpoints", "features", "phase", "runtimeHandlers",
		"volumesAttached", "volumesInUse"},
	reflect.TypeFor[NodeSystemInfo](): {"swap"},

	// services
	reflect.TypeFor[ServiceSpec](): {"allocateLoadBalancerNodePorts", "externalIPs", "externalName",
		"healthCheckNodePort", "loadBalancerClass", "loadBalancerIP", "loadBalancerSourceRanges",
		"publishNotReadyAddresses", "trafficDistribution"},
	reflect.TypeFor[ServicePort]():         {"appProtocol"},
	reflect.TypeFor[ServiceStatus]():       {"conditions"},
	reflect.TypeFor[LoadBalancerIngress](): {"ipMode", "ports"},
	reflect.TypeFor[EndpointPort]():        {"appProtocol"},

	// disruption budgets
	reflect.TypeFor[PodDisruptionBudgetSpec](): {"unhealthyPodEvictionPolicy"},
	// storage: the network and cloud volume sources, data sources and volume attributes classes
	reflect.TypeFor[PersistentVolumeSpec](): {"awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder",
		"csi", "fc", "flexVolume", "flocker", "gcePersistentDisk", "glusterfs", "iscsi", "nfs", "photonPersistentDisk",
		"portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "volumeAttributesClassName", "vsphereVolume"},
	reflect.TypeFor[PersistentVolumeStatus]():    {"lastPhaseTransitionTime"},
	reflect.TypeFor[PersistentVolumeClaimSpec](): {"dataSource", "dataSourceRef", "volumeAttributesClassName"},
	reflect.TypeFor[PersistentVolumeClaimStatus](): {"allocatedResourceStatuses", "allocatedResources", "conditions",
		"currentVolumeAttributesClassName", "modifyVolumeStatus"},
	reflect.TypeFor[StorageClass](): {"allowedTopologies"},

	// the rest
	reflect.TypeFor[Event]():               {"related", "series"},
	reflect.TypeFor[ResourceQuotaSpec]():   {"scopeSelector", "scopes"},
	reflect.TypeFor[LeaseSpec]():           {"preferredHolder", "strategy"},
	reflect.TypeFor[ClusterRole]():         {"aggregationRule"},
	reflect.TypeFor[Webhook]():             {"matchConditions"},
	reflect.TypeFor[WebhookClientConfig](): {"caBundle", "url"},
	reflect.TypeFor[RuleWithOperations]():  {"scope"},
}

// unmodelledSet is unmodelled as sets, for the strict check.
var unmodelledSet = func() map[reflect.Type]map[string]bool {
	m := make(map[reflect.Type]map[string]bool, len(unmodelled))
	for t, fields := range unmodelled {
		m[t] = make(map[string]bool, len(fields))
		for _, f := range fields {
			m[t][f] = true
		}
	}
	return m
}()

// UnmodelledFields returns the JSON names of the Kubernetes fields that kubesim's type t leaves out:
// a manifest may set them, and decoding drops them with a warning.
func UnmodelledFields(t reflect.Type) []string {
	return append([]string(nil), unmodelled[t]...)
}

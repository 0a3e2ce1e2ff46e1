// controlplane_node.go: a control-plane node, as `kubeadm init` makes one. Its kubelet runs the
// control plane's components as static pods from /etc/kubernetes/manifests (kubelet/static_pods.go),
// so that `kubectl -n kube-system get pods` lists them and `kubectl -n kube-system logs` reads them
// (component_logs.go), as on a kubeadm cluster; its role label and NoSchedule taint keep other pods
// off it. A cluster with one (and a controller manager and a scheduler) also gets kubeadm's add-ons,
// CoreDNS and kube-proxy (addons.go). kubesim serve starts one (ControlPlaneNode); a scenario's
// cluster has none, so the scenarios' "0/3 nodes are available" stays as the catalogue tells it.
//
// The pods are kubeadm v1.34's (cmd/kubeadm/app/phases/controlplane, phases/etcd): one container,
// hostNetwork, priorityClassName system-node-critical, labels component and tier=control-plane,
// kubeadm's CPU requests (etcd also 100Mi of memory), the port named probe-port and kubeadm's
// liveness, readiness and startup probes on it (util/staticpod: so describe shows `Liveness:
// http-get https://192.168.49.2:probe-port/livez delay=10s timeout=15s period=10s #success=1
// #failure=8`, and a pod is Ready only once its probes pass). Simplified: the commands carry the
// flags a learner looks for, not all of kubeadm's; no hostPath volumes (certificates, etcd's data).
// The processes themselves are kubesim's components, which run whatever the pods do: a container
// that stops does not stop the component.
package sim

import (
	"slices"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/apiserver"
	fakeruntime "kubesim/runtime"
)

// ControlPlaneNodeName is the control-plane node's name (kubeadm names it after the host).
const ControlPlaneNodeName = "control-plane"

// ControlPlaneNode is a control-plane node of the default workers' size.
func ControlPlaneNode() NodeSpec {
	return NodeSpec{Name: ControlPlaneNodeName, CPU: "4", Memory: "8Gi", Pods: 110, ControlPlane: true}
}

// controlPlaneRole adds kubeadm's role label (and its load-balancer exclusion) and taint to a node's.
func controlPlaneRole(labels map[string]string, taints []api.Taint) (map[string]string, []api.Taint) {
	out := map[string]string{api.LabelNodeRoleControlPlane: "", "node.kubernetes.io/exclude-from-external-load-balancers": ""}
	for k, v := range labels {
		out[k] = v
	}
	return out, append(slices.Clone(taints), api.Taint{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule})
}

// probePort is the name kubeadm gives the port its probes use (kubeadmconstants.ProbePort).
const probePort = "probe-port"

// kubeadmProbe is kubeadm's HTTP probe of a component (util/staticpod's createHTTPProbe): path on
// host's probe-port, 15 seconds to answer.
func kubeadmProbe(host, path string, scheme api.URIScheme, delay, failures, period int32) *api.Probe {
	return &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Host: host, Path: path,
		Port: api.FromString(probePort), Scheme: scheme}},
		InitialDelaySeconds: delay, TimeoutSeconds: 15, FailureThreshold: failures, PeriodSeconds: period}
}

// probe sets kubeadm's probes on a component's container at host: liveness after 10 seconds, every
// 10, restarting after 8 failures; readiness (when readyz is not "") at once, every second, 3
// failures; startup after 10 seconds, every 10, for up to kubeadm's 4-minute control-plane health
// check (24 failures).
func probe(c *api.Container, host string, scheme api.URIScheme, livez, readyz, startup string) {
	c.LivenessProbe = kubeadmProbe(host, livez, scheme, 10, 8, 10)
	if readyz != "" {
		c.ReadinessProbe = kubeadmProbe(host, readyz, scheme, 0, 3, 1)
	}
	c.StartupProbe = kubeadmProbe(host, startup, scheme, 10, 24, 10)
}

// controlPlaneManifests are the static pods of the components this cluster runs, on node at ip.
func (c *Cluster) controlPlaneManifests(node, ip string) []*api.Pod {
	pod := func(component, cpu string, port int32, command ...string) *api.Pod {
		requests := resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}
		if component == "etcd" {
			requests[resource.ResourceMemory] = resource.MustParse("100Mi")
		}
		return &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: component, Namespace: api.NamespaceSystem,
				Labels: map[string]string{"component": component, "tier": "control-plane"}},
			Spec: api.PodSpec{
				Containers: []api.Container{{Name: component, Image: fakeruntime.KubeadmImages[component],
					ImagePullPolicy: api.PullIfNotPresent, Command: append([]string{component}, command...),
					Ports:     []api.ContainerPort{{Name: probePort, ContainerPort: port, Protocol: api.ProtocolTCP}},
					Resources: api.ResourceRequirements{Requests: requests}}},
				HostNetwork: true, PriorityClassName: api.SystemNodeCritical,
			},
		}
	}
	const localhost = "127.0.0.1"
	etcd := pod("etcd", "100m", 2381, "--advertise-client-urls=https://"+ip+":2379", "--data-dir=/var/lib/etcd",
		"--listen-client-urls=https://127.0.0.1:2379,https://"+ip+":2379", "--listen-metrics-urls=http://127.0.0.1:2381",
		"--name="+node, "--snapshot-count=10000", "--cert-file=/etc/kubernetes/pki/etcd/server.crt")
	etcd.Annotations = map[string]string{"kubeadm.kubernetes.io/etcd.advertise-client-urls": "https://" + ip + ":2379"}
	probe(&etcd.Spec.Containers[0], localhost, api.URISchemeHTTP, "/livez", "/readyz", "/readyz")
	apiServer := pod("kube-apiserver", "250m", 6443, "--advertise-address="+ip, "--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction", "--etcd-servers=https://127.0.0.1:2379", "--secure-port=6443",
		"--service-cluster-ip-range="+apiserver.ServiceClusterIPRange, "--client-ca-file=/etc/kubernetes/pki/ca.crt")
	apiServer.Annotations = map[string]string{"kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint": ip + ":6443"}
	probe(&apiServer.Spec.Containers[0], ip, api.URISchemeHTTPS, "/livez", "/readyz", "/livez")
	pods := []*api.Pod{etcd, apiServer}
	if c.Config.ControllerManager {
		cm := pod("kube-controller-manager", "200m", 10257, "--allocate-node-cidrs=true",
			"--cluster-cidr="+c.clusterCIDR(), "--kubeconfig=/etc/kubernetes/controller-manager.conf", "--leader-elect=true",
			"--use-service-account-credentials=true")
		probe(&cm.Spec.Containers[0], localhost, api.URISchemeHTTPS, "/healthz", "", "/healthz") // no readiness probe
		pods = append(pods, cm)
	}
	if c.Config.Scheduler {
		sched := pod("kube-scheduler", "100m", 10259, "--bind-address=127.0.0.1",
			"--kubeconfig=/etc/kubernetes/scheduler.conf", "--leader-elect=true")
		probe(&sched.Spec.Containers[0], localhost, api.URISchemeHTTPS, "/livez", "/readyz", "/livez")
		pods = append(pods, sched)
	}
	return pods
}

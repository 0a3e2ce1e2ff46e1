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
// kubeadm's CPU requests (etcd also 100Mi of memory). Simplified: the commands carry the flags a
// learner looks for, not all of kubeadm's; no hostPath volumes (certificates, etcd's data) and no
// probes. The processes themselves are kubesim's components, which run whatever the pods do: a
// container that stops does not stop the component.
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

// controlPlaneManifests are the static pods of the components this cluster runs, on node at ip.
func (c *Cluster) controlPlaneManifests(node, ip string) []*api.Pod {
	pod := func(component, cpu string, command ...string) *api.Pod {
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
					Resources: api.ResourceRequirements{Requests: requests}}},
				HostNetwork: true, PriorityClassName: api.SystemNodeCritical,
			},
		}
	}
	etcd := pod("etcd", "100m", "--advertise-client-urls=https://"+ip+":2379", "--data-dir=/var/lib/etcd",
		"--listen-client-urls=https://127.0.0.1:2379,https://"+ip+":2379", "--name="+node,
		"--snapshot-count=10000", "--cert-file=/etc/kubernetes/pki/etcd/server.crt")
	etcd.Annotations = map[string]string{"kubeadm.kubernetes.io/etcd.advertise-client-urls": "https://" + ip + ":2379"}
	apiServer := pod("kube-apiserver", "250m", "--advertise-address="+ip, "--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction", "--etcd-servers=https://127.0.0.1:2379", "--secure-port=6443",
		"--service-cluster-ip-range="+apiserver.ServiceClusterIPRange, "--client-ca-file=/etc/kubernetes/pki/ca.crt")
	apiServer.Annotations = map[string]string{"kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint": ip + ":6443"}
	pods := []*api.Pod{etcd, apiServer}
	if c.Config.ControllerManager {
		pods = append(pods, pod("kube-controller-manager", "200m", "--allocate-node-cidrs=true",
			"--cluster-cidr="+c.clusterCIDR(), "--kubeconfig=/etc/kubernetes/controller-manager.conf", "--leader-elect=true",
			"--use-service-account-credentials=true"))
	}
	if c.Config.Scheduler {
		pods = append(pods, pod("kube-scheduler", "100m", "--bind-address=127.0.0.1",
			"--kubeconfig=/etc/kubernetes/scheduler.conf", "--leader-elect=true"))
	}
	return pods
}

// taints.go: taints, nodes that repel pods: a control-plane node tainted the way kubeadm
// taints it and a GPU node tainted for GPU work only. Ordinary pods never land on them; a pod that
// selects the GPU node but forgot its toleration stays Pending with the taint named in the message;
// with the toleration it lands there; pods tolerating the control-plane taint may land on it.
package scenarios

import (
	"cmp"
	"context"
	"strings"

	"kubesim/api"
	"kubesim/client"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// taintsNodes: two ordinary workers, kubeadm's control-plane node and a GPU node.
var taintsNodes = []sim.NodeSpec{
	{Name: "control-plane", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-a",
		Labels: map[string]string{api.LabelNodeRoleControlPlane: ""},
		Taints: []api.Taint{{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule}}},
	{Name: "gpu-1", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-b",
		Labels: map[string]string{"accelerator": "nvidia"},
		Taints: []api.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: api.TaintEffectNoSchedule}}},
	{Name: "node-1", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-a"},
	{Name: "node-2", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-b"},
}

// trainerPodYAML selects the GPU node; tolerations, when given, are appended to its spec.
var trainerPodYAML = manifests.Read("trainer-pod.yaml")

const trainerToleration = `  tolerations:
  - key: nvidia.com/gpu
    operator: Equal
    value: present
    effect: NoSchedule
`

func init() {
	register(sim.Scenario{
		Name:    "taints",
		Summary: "a tainted control-plane node and a GPU node: ordinary pods avoid them, a pod with the toleration may land",
		Teaches: `A taint on a node repels every pod that does not tolerate it: kubeadm taints control-plane nodes
node-role.kubernetes.io/control-plane:NoSchedule so that workloads stay off them, and clusters taint
GPU nodes (here nvidia.com/gpu=present:NoSchedule) so that only GPU jobs use the expensive hardware.
The TaintToleration filter rejects a node with a NoSchedule taint the pod does not tolerate. A
toleration only permits: it does not attract. To send a pod to a tainted node it needs the toleration
AND a nodeSelector or affinity for that node.

Signs to look for: the web pods on node-1 and node-2 only; the GPU job that forgot its toleration
Pending with "node(s) had untolerated taint {nvidia.com/gpu: present}" and "{node-role.kubernetes.io/
control-plane: }" in its FailedScheduling message; the same job with the toleration bound to gpu-1;
the log agents, which tolerate the control-plane taint, passing Filter on 3 of 4 nodes and some of
them landing on control-plane.`,
		SummaryZH: "一个带污点的控制面节点和一个 GPU 节点：普通 Pod 避开它们，带容忍的 Pod 才可能落上去",
		TeachesZH: `节点上的污点会排斥所有不容忍它的 Pod：kubeadm 给控制面节点打上污点
node-role.kubernetes.io/control-plane:NoSchedule，让工作负载不上去；集群也常给 GPU 节点打污点（这里
是 nvidia.com/gpu=present:NoSchedule），让昂贵的硬件只给 GPU 任务用。TaintToleration 过滤器会排除带
有 Pod 不容忍的 NoSchedule 污点的节点。容忍只是“允许”，不是“吸引”：要把 Pod 送到带污点的节点上，既要
有容忍，也要有指向那个节点的 nodeSelector 或亲和性。

要看的信号：web Pod 只在 node-1 和 node-2 上；忘了加容忍的 GPU 任务一直 Pending，FailedScheduling 消
息里有 "node(s) had untolerated taint {nvidia.com/gpu: present}" 和 "{node-role.kubernetes.io/
control-plane: }"；同一个任务加上容忍后绑定到 gpu-1；容忍控制面污点的日志代理在 4 个节点中的 3 个上
通过 Filter，其中一些落到了 control-plane 上。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: taintsNodes},
		ZH: catalog{
			"%d. kubectl apply -f web.yaml: 4 ordinary pods, with no tolerations":                                         "%d. kubectl apply -f web.yaml：4 个普通 Pod，没有任何 toleration",
			"%d. kubectl apply -f trainer.yaml: a GPU job that selects accelerator=nvidia but forgot the toleration":      "%d. kubectl apply -f trainer.yaml：一个 GPU 任务，选择了 accelerator=nvidia，却忘了加 toleration",
			"%d. kubectl delete pod trainer, then apply it again with a toleration for nvidia.com/gpu=present:NoSchedule": "%d. kubectl delete pod trainer，然后带上 nvidia.com/gpu=present:NoSchedule 的 toleration 重新 apply",
			"%d. kubectl apply -f log-agent.yaml: 3 pods that tolerate the control-plane taint and select no node":        "%d. kubectl apply -f log-agent.yaml：3 个容忍 control-plane taint、但不指定节点的 Pod",
			"%s and the two workers are rejected by its nodeSelector":                                                     "%s 两个 worker 节点被它的 nodeSelector 排除",
			"%s kubectl describe pod trainer: Pending, FailedScheduling names both taints: %s":                            "%s kubectl describe pod trainer：Pending，FailedScheduling 点名了两个污点：%s",
			"%s kubectl get pods -o wide: the web pods run on the untainted nodes only (%s)":                              "%s kubectl get pods -o wide：web Pod 只运行在没有污点的节点上（%s）",
			"%s no log agent on gpu-1: they do not tolerate its taint (%s)":                                               "%s gpu-1 上没有日志代理：它们不容忍它的污点（%s）",
			"%s pod trainer runs on gpu-1: the toleration lets it in, the nodeSelector sends it there":                    "%s Pod trainer 运行在 gpu-1 上：容忍让它进得去，nodeSelector 把它送过去",
			"%s the toleration lets %d of them land on control-plane, whose taint they tolerate":                          "%s 容忍让其中 %d 个落在 control-plane 上，它们容忍该节点的污点",
		},
		Run: runTaints,
	})
}

func runTaints(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f web.yaml: 4 ordinary pods, with no tolerations")
	if !applyFile(ctx, s, "taints-web-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment web available") {
		return s.Err()
	}
	perNode, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=web"))
	s.Expect(perNode["control-plane"] == 0 && perNode["gpu-1"] == 0 && perNode["node-1"]+perNode["node-2"] == 4,
		"kubectl get pods -o wide: the web pods run on the untainted nodes only (%s)", placement)

	s.Step("kubectl apply -f trainer.yaml: a GPU job that selects accelerator=nvidia but forgot the toleration")
	if !apply(ctx, s, trainerPodYAML) {
		return s.Err()
	}
	if !until(ctx, s, 0, "event FailedScheduling for pod/trainer") {
		return s.Err()
	}
	const gpuTaint = "node(s) had untolerated taint {nvidia.com/gpu: present}"
	const cpTaint = "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"
	var trainer *api.Pod
	msg := ""
	bothTaints := func() bool { // the pod's condition may trail the event in real time
		trainer, msg = objectNow[api.Pod](ctx, s, "default", "trainer"), ""
		if c := schedCondition(trainer); c != nil {
			msg = c.Message
		}
		return schedUnschedulable(trainer, "0/4 nodes are available:") && strings.Contains(msg, "1 "+gpuTaint) && strings.Contains(msg, "1 "+cpTaint)
	}
	s.Expect(settled(ctx, s, bothTaints), "kubectl describe pod trainer: Pending, FailedScheduling names both taints: %s", cmp.Or(msg, "(no PodScheduled condition)"))
	s.Expect(strings.Contains(msg, "2 node(s) didn't match Pod's node affinity/selector"),
		"and the two workers are rejected by its nodeSelector")

	s.Step("kubectl delete pod trainer, then apply it again with a toleration for nvidia.com/gpu=present:NoSchedule")
	if err := s.Kubectl.Delete(ctx, "pods", "default", "trainer", client.DeleteOptions{GracePeriodSeconds: api.Ptr(int64(0))}); err != nil {
		return s.Err()
	}
	if !until(ctx, s, 0, "pod trainer gone") {
		return s.Err()
	}
	if !apply(ctx, s, trainerPodYAML+trainerToleration) {
		return s.Err()
	}
	if !until(ctx, s, 0, "pod trainer running") {
		return s.Err()
	}
	trainer = objectNow[api.Pod](ctx, s, "default", "trainer")
	s.Expect(trainer.Spec.NodeName == "gpu-1", "pod trainer runs on gpu-1: the toleration lets it in, the nodeSelector sends it there")

	s.Step("kubectl apply -f log-agent.yaml: 3 pods that tolerate the control-plane taint and select no node")
	if !applyFile(ctx, s, "log-agent-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment log-agent available") {
		return s.Err()
	}
	perNode, placement, _ = schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=log-agent"))
	s.Expect(perNode["gpu-1"] == 0, "no log agent on gpu-1: they do not tolerate its taint (%s)", placement)
	s.Expect(perNode["control-plane"] > 0, "the toleration lets %d of them land on control-plane, whose taint they tolerate", perNode["control-plane"])
	return s.Err()
}

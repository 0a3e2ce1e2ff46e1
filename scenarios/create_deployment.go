// create_deployment.go: create-deployment, the articles' end-to-end timeline (article 1,
// section 6.1; article 2, section 6.1): `kubectl apply -f nginx-deployment.yaml` through the apiserver
// into etcd, the Deployment controller's ReplicaSet, the ReplicaSet controller's Pods, the scheduler's
// filter, score and bind, and each kubelet's sandbox, pull, create, start, probe and status report,
// until the Deployment reads 3/3 available.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "create-deployment",
		Summary: "kubectl apply -f nginx-deployment.yaml, followed through every component until 3/3 pods are available",
		Teaches: `The whole path of one command, as the articles tell it: kubectl POSTs the Deployment; the apiserver
authenticates, authorizes, admits (defaults), validates and writes it to etcd. The Deployment controller,
watching Deployments, sees 0 of 3 replicas and creates a ReplicaSet named after the pod template's hash;
the ReplicaSet controller creates 3 Pods with no nodeName. The scheduler, watching unscheduled Pods, filters
and scores the nodes and binds each Pod to one. Each kubelet, watching Pods bound to its node, creates the
pause sandbox (the pod IP), pulls the image, creates and starts the container, and reports the Pod Running
and Ready. The controllers roll the status up until the Deployment is available.

Signs to look for: the events "Scaled up replica set nginx-<hash> from 0 to 3", "Created pod:
nginx-<hash>-<suffix>", "Successfully assigned default/nginx-... to node-N", "Pulling image", "Successfully
pulled image", "Created container", "Started container"; each step's resourceVersion; the Deployment at
3/3 available with condition Available=True (MinimumReplicasAvailable).`,
		SummaryZH: "kubectl apply -f nginx-deployment.yaml，逐个组件跟下去，直到 3/3 个 Pod 可用",
		TeachesZH: `一条命令走完的全过程，和文章讲的一样：kubectl 把 Deployment POST 给 apiserver；apiserver 依次做认
证、授权、准入控制（填默认值）、校验，再把它持久化到 etcd。Deployment 控制器 watch 着 Deployment，看
到期望 3 个副本、实际 0 个，便创建一个以 Pod 模板哈希命名的 ReplicaSet；ReplicaSet 控制器再创建 3 个
没有 nodeName 的 Pod。调度器 watch 着未调度的 Pod，对节点做过滤和打分，把每个 Pod 绑定到一个节点。每
个节点上的 kubelet watch 着绑定到本节点的 Pod，创建 pause 沙箱（分配 Pod IP）、拉取镜像、创建并启动
容器，再上报 Pod 为 Running、Ready。各控制器逐级汇总状态，直到 Deployment 可用，达到期望状态。

要看的信号：事件 "Scaled up replica set nginx-<hash> from 0 to 3"、"Created pod:
nginx-<hash>-<suffix>"、"Successfully assigned default/nginx-... to node-N"、"Pulling image"、
"Successfully pulled image"、"Created container"、"Started container"；每一步的 resourceVersion；
Deployment 达到 3/3 可用，状况 Available=True（MinimumReplicasAvailable）。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%s event %s: %s...": "%s 事件 %s：%s...",
			"%d. kubectl apply -f nginx-deployment.yaml (3 replicas of nginx:1.25)":                       "%d. kubectl apply -f nginx-deployment.yaml（3 个 nginx:1.25 副本）",
			"%d. The control plane and the kubelets take it from here, until the Deployment is available": "%d. 接下来交给控制面和各节点的 kubelet，直到 Deployment 可用",
			"%d. What kubectl get and kubectl describe now show":                                          "%d. 现在 kubectl get 和 kubectl describe 能看到什么",
			"%s deployment nginx becomes available: %v":                                                   "%s Deployment nginx 变为可用：%v",
			"%s kubectl get deployment nginx: READY 3/3, UP-TO-DATE 3, AVAILABLE 3":                       "%s kubectl get deployment nginx：READY 3/3，UP-TO-DATE 3，AVAILABLE 3（达到期望状态）",
			"%s condition Available=True (MinimumReplicasAvailable)":                                      "%s 状况 Available=True（MinimumReplicasAvailable：可用副本数达到下限）",
			"%s kubectl get pods -l app=nginx: 3 pods, all Running":                                       "%s kubectl get pods -l app=nginx：3 个 Pod，全部 Running",
			"%s the scheduler spread them over %d nodes":                                                  "%s 调度器把它们分散到了 %d 个节点上",
		},
		Run: runCreateDeployment,
	})
}

func runCreateDeployment(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml (3 replicas of nginx:1.25)")
	if !applyFile(ctx, s, "nginx-deployment.yaml") {
		return s.Err()
	}

	s.Step("The control plane and the kubelets take it from here, until the Deployment is available")
	if !until(ctx, s, 0, "deployment nginx available") {
		return s.Err()
	}

	s.Step("What kubectl get and kubectl describe now show")
	d, err := sim.Get[api.Deployment](ctx, s.Cluster, "default", "nginx")
	if err != nil {
		return err
	}
	s.Expect(d.Status.ReadyReplicas == 3 && d.Status.AvailableReplicas == 3 && d.Status.UpdatedReplicas == 3,
		"kubectl get deployment nginx: READY 3/3, UP-TO-DATE 3, AVAILABLE 3")
	s.Expect(hasDeploymentCondition(d, "Available", "True", "MinimumReplicasAvailable"),
		"condition Available=True (MinimumReplicasAvailable)")
	pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=nginx", "")
	if err != nil {
		return err
	}
	nodes := map[string]bool{}
	for _, p := range pods {
		nodes[p.Spec.NodeName] = true
	}
	s.Expect(len(pods) == 3, "kubectl get pods -l app=nginx: 3 pods, all Running")
	s.Expect(len(nodes) > 1, "the scheduler spread them over %d nodes", len(nodes))

	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	for _, want := range []struct{ reason, message string }{
		{"ScalingReplicaSet", "Scaled up replica set nginx-"},
		{"SuccessfulCreate", "Created pod: nginx-"},
		{"Scheduled", "Successfully assigned default/nginx-"},
		{"Pulling", `Pulling image "nginx:1.25"`},
		{"Pulled", `Successfully pulled image "nginx:1.25"`},
		{"Created", "Created container"},
		{"Started", "Started container"},
	} {
		s.Expect(sim.FindEvent(events, want.reason, want.message) != nil, "event %s: %s...", want.reason, want.message)
	}
	return s.Err()
}

func hasDeploymentCondition(d *api.Deployment, typ, status, reason string) bool {
	c := api.GetDeploymentCondition(d.Status, api.DeploymentConditionType(typ))
	return c != nil && string(c.Status) == status && c.Reason == reason
}

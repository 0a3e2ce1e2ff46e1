// local_autonomy.go: local-autonomy, node-1 loses its network path to the apiserver
// (article 2, section 6.3): the kubelet cannot report anything, so the control plane marks the node
// Unknown, but on the node nothing stops: containers run, the kubelet even restarts one that crashes,
// from what it last saw. When the network heals, the status catches up.
package scenarios

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "local-autonomy",
		StepOnly: true,
		Summary:  "node-1 cannot reach the apiserver: its containers keep running (and restarting) locally; the status catches up after the network heals",
		Teaches: `The control plane is not in the data path. A kubelet runs the pods it was given from its own cache of
them; it needs the apiserver to hear about new or deleted pods and to report status, not to keep
containers alive. When node-1 is cut off from the apiserver (a network partition), its requests fail
("connection refused") and its Lease is not renewed, so after the 50s grace period the node lifecycle
controller marks node-1 Unknown, sets its pods' Ready condition to False and taints the node
unreachable: from the control plane's side it looks exactly like node-down. On node-1 itself nothing
changed: nginx keeps serving, and the worker pod, which crashes every 60s, is restarted by the kubelet
as usual, with nobody told. When the network heals within the pods' 300s toleration, the kubelet
renews its Lease, the node is Ready, the taint goes, and the kubelet writes the pod statuses it could
not write before: the restart count the apiserver shows jumps to what really happened. (A real kubelet
also puts back Ready=True on pods whose status did not change, such as nginx here, within 10s; kubesim's
kubelet rewrites a status only when its own view changed, so nginx keeps the controller's
Ready=False for now.)

Signs to look for: the kubelet's trace "failed to renew lease: ... connection refused (network
partition)"; node-1 Ready=Unknown and the pods on it Ready=False; containerd on node-1 (crictl ps)
still running nginx with the same container ID and a worker container restarted while the apiserver
showed RESTARTS 0; after the heal, node-1 Ready, the taint gone, and worker's RESTARTS caught up.`,
		SummaryZH: "node-1 连不上 apiserver：它的容器在本地照常运行（和重启）；网络恢复后状态再追上来",
		TeachesZH: `控制面不在数据路径上。kubelet 按它自己缓存的那份 Pod 运行分配给它的 Pod；它需要 apiserver 来得知新增
或删除的 Pod、上报状态，而不是为了让容器活着。node-1 与 apiserver 断开（网络分区）时，它的请求失败
（"connection refused"），Lease 也不再续约，于是 50s 宽限期过后，节点生命周期控制器把 node-1 标为
Unknown，把它上面 Pod 的 Ready 状况设为 False，并给节点打上 unreachable 污点：从控制面这一侧看，和
node-down 一模一样。而 node-1 本身什么都没变：nginx 继续提供服务，每 60s 崩溃一次的 worker Pod 照常
被 kubelet 重启，没有人得到通知。如果网络在 Pod 的 300s 容忍期内恢复，kubelet 续约 Lease，节点变为
Ready，污点移除，kubelet 把之前写不进去的 Pod 状态写进去：apiserver 显示的重启次数一下子跳到实际发生
的次数。（真实的 kubelet 还会在 10s 内给状态没变的 Pod（比如这里的 nginx）重新写回 Ready=True；
kubesim 的 kubelet 只在自己的视图变化时才重写状态，所以 nginx 暂时保留控制器写的 Ready=False。）

要看的信号：kubelet 的 trace "failed to renew lease: ... connection refused (network partition)"；
node-1 Ready=Unknown，其上的 Pod Ready=False；node-1 上的 containerd（crictl ps）仍在运行 nginx，容
器 ID 不变，worker 容器被重启过，而 apiserver 显示的 RESTARTS 还是 0；恢复后 node-1 Ready，污点消
失，worker 的 RESTARTS 追上来。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply: nginx-deployment.yaml (one pod per node) and worker on node-1, which crashes every 60s":     "%d. kubectl apply：nginx-deployment.yaml（每个节点一个 Pod），以及 node-1 上每 60 秒崩溃一次的 worker",
			"%d. A network partition: node-1's kubelet can no longer reach kube-apiserver":                                  "%d. 网络分区：node-1 的 kubelet 再也连不上 kube-apiserver",
			"%d. Two minutes pass: the control plane marks node-1 Unknown; on node-1 life goes on":                          "%d. 两分钟过去：控制面把 node-1 标记为 Unknown；node-1 上一切照常",
			"%d. The network heals: node-1 is Ready again and the status catches up":                                        "%d. 网络恢复：node-1 重新 Ready，状态随之补报",
			"%s crictl ps on node-1: nginx still running in the same container (%s)":                                        "%s 在 node-1 上 crictl ps：nginx 仍在同一个容器里运行（%s）",
			"%s crictl ps on node-1: worker running again after crashing: the kubelet restarted it on its own (attempt %s)": "%s 在 node-1 上 crictl ps：worker 崩溃后又在运行：kubelet 自己重启了它（attempt %s）",
			"%s kubectl get node node-1: NotReady (Ready Unknown), tainted node.kubernetes.io/unreachable:NoExecute":        "%s kubectl get node node-1：NotReady（Ready Unknown），加了污点 node.kubernetes.io/unreachable:NoExecute",
			"%s kubectl get pod worker: RESTARTS %d, what node-1 did while it was cut off":                                  "%s kubectl get pod worker：重启 %d 次，这是 node-1 断网期间做的事",
			"%s kubelet log on node-1: failed to renew lease: ... connection refused":                                       "%s node-1 的 kubelet 日志：failed to renew lease: ... connection refused（连不上 apiserver）",
			"%s node.kubernetes.io/unreachable removed, within the 300s toleration: no pod was evicted":                     "%s node.kubernetes.io/unreachable 已去掉，仍在 300 秒容忍期内：没有 Pod 被驱逐",
			"%s the apiserver shows %s Ready=False":                                                                         "%s apiserver 显示 %s Ready=False",
			"%s the apiserver shows worker with RESTARTS 0":                                                                 "%s apiserver 显示 worker 重启 0 次",
		},
		Run: runLocalAutonomy,
	})
}

func runLocalAutonomy(ctx context.Context, s *sim.Session) error {
	logs := kubeletLogs(s)

	s.Step("kubectl apply: nginx-deployment.yaml (one pod per node) and worker on node-1, which crashes every 60s")
	for _, file := range []string{"nginx-deployment.yaml", "worker.yaml"} {
		if !applyFile(ctx, s, file) {
			return s.Err()
		}
	}
	if !until(ctx, s, 2*time.Minute, "deployment nginx available") || !until(ctx, s, time.Minute, "pod worker ready") {
		return s.Err()
	}
	nginx := podOnNode(ctx, s, "app=nginx", "node-1")
	if nginx == nil {
		s.Expect(false, "a pod of nginx runs on node-1")
		return s.Err()
	}
	worker, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "worker")
	if err != nil {
		return err
	}

	s.Step("A network partition: node-1's kubelet can no longer reach kube-apiserver")
	s.Partition("kubelet/node-1")

	s.Step("Two minutes pass: the control plane marks node-1 Unknown; on node-1 life goes on")
	if err := s.Driver.Advance(ctx, 2*time.Minute); err != nil {
		return err
	}
	s.Expect(says(logs.Lines(), "kubelet/node-1", "failed to renew lease: update leases: dial kube-apiserver: connection refused"),
		"kubelet log on node-1: failed to renew lease: ... connection refused")
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
	if err != nil {
		return err
	}
	s.Expect(nodeCondition(node, api.NodeReady).Status == api.ConditionUnknown && hasTaint(node, api.TaintNodeUnreachable, api.TaintEffectNoExecute),
		"kubectl get node node-1: NotReady (Ready Unknown), tainted node.kubernetes.io/unreachable:NoExecute")
	seen, err := sim.Get[api.Pod](ctx, s.Cluster, "default", nginx.Name)
	s.Expect(err == nil && podReady(seen) == api.ConditionFalse, "the apiserver shows %s Ready=False", nginx.Name)
	seen, err = sim.Get[api.Pod](ctx, s.Cluster, "default", "worker")
	s.Expect(err == nil && restarts(seen) == 0, "the apiserver shows worker with RESTARTS 0")

	n, _ := s.Node("node-1")
	nginxRunning := runningContainer(ctx, n.Runtime, nginx.UID)
	s.Expect(nginxRunning != nil && "containerd://"+nginxRunning.ID == containerIDs(nginx)[0],
		"crictl ps on node-1: nginx still running in the same container (%s)", shortContainerID(nginxRunning))
	workerRunning := runningContainer(ctx, n.Runtime, worker.UID)
	s.Expect(workerRunning != nil && workerRunning.Metadata.Attempt >= 1,
		"crictl ps on node-1: worker running again after crashing: the kubelet restarted it on its own (attempt %s)", attempt(workerRunning))

	s.Step("The network heals: node-1 is Ready again and the status catches up")
	s.Heal("kubelet/node-1")
	if !until(ctx, s, time.Minute, "node node-1 ready") {
		return s.Err()
	}
	// The worker's status changed while the kubelet could not write it (a restart); that write was
	// waiting, and goes through now.
	if !s.Until(ctx, time.Minute, sim.Check("worker's status caught up", func() (bool, error) {
		seen, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "worker")
		return err == nil && restarts(seen) >= 1, err
	})) {
		return s.Err()
	}
	seen, err = sim.Get[api.Pod](ctx, s.Cluster, "default", "worker")
	s.Expect(err == nil && restarts(seen) >= 1,
		"kubectl get pod worker: RESTARTS %d, what node-1 did while it was cut off", restarts(seen))
	if !s.Until(ctx, time.Minute, sim.Check("the unreachable taint removed from node-1", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
		return err == nil && !hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute), err
	})) {
		return s.Err()
	}
	s.Expect(true, "node.kubernetes.io/unreachable removed, within the 300s toleration: no pod was evicted")
	return s.Err()
}

// runningContainer is the running container of the pod with that uid, as crictl ps on the node
// shows it, or nil.
func runningContainer(ctx context.Context, rt *fakeruntime.Runtime, uid string) *fakeruntime.Container {
	containers, err := rt.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: uid}})
	if err != nil {
		return nil
	}
	for _, c := range containers {
		if c.State == fakeruntime.ContainerRunning {
			return c
		}
	}
	return nil
}

func shortContainerID(c *fakeruntime.Container) string {
	if c == nil {
		return "none"
	}
	return c.ID[:13]
}

func attempt(c *fakeruntime.Container) string {
	if c == nil {
		return "none running"
	}
	return fmt.Sprint(c.Metadata.Attempt)
}

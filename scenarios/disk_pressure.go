// disk_pressure.go: disk-pressure, a pod that keeps writing fills node-1's disk (article 2, section
// 6.3, "Evicted"; the kubelet's DiskPressure): the eviction manager sees imagefs.available under its
// hard threshold, reclaims the node's unused images first, which buys a little time, then evicts
// the pod that uses more ephemeral-storage than it requested; the node reports DiskPressure, is
// tainted, refuses a new pod, and recovers five minutes after the disk is free again.
package scenarios

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

func init() {
	nodes := sim.DefaultNodes(3)
	nodes[0].Disk = "4Gi"
	register(sim.Scenario{
		Name:    "disk-pressure",
		Summary: "a pod writing to its writable layer fills node-1's 4Gi disk: EvictionThresholdMet, unused images reclaimed first, then the pod over its ephemeral-storage request evicted; DiskPressure, the taint, a new pod refused, recovery",
		Teaches: `node-1 has a 4Gi disk, which holds the images and every container's writable layer: without a
separate image filesystem (Kubernetes' default) the kubelet's two disk signals, nodefs.available and
imagefs.available, measure the same disk. Yesterday's report pod left three images behind (nginx:1.25,
httpd:2.4, redis:7.2): deleting a pod does not delete its images. Now logger writes 7Mi/s to its
writable layer and requests no ephemeral-storage; web requests 100Mi and writes nothing. Every 10s the
eviction manager compares free space with its hard thresholds: imagefs.available<15% (crossed first,
at 85% used) and nodefs.available<10%. When the disk crosses it, the kubelet records
EvictionThresholdMet ("Attempting to reclaim ephemeral-storage"), reports DiskPressure=True, and first
reclaims what belongs to the node rather than to a pod: dead containers, then every image no container
uses and that it first saw over 2 minutes ago (imageMinimumGCAge), least recently used first. A
successful image collection records no event: the images simply leave the node's status. That is
enough for now, so nobody is evicted; but logger keeps writing, and at the next crossing there is
nothing left to reclaim. The manager then evicts one pod, ranked as Kubernetes ranks them for disk:
pods using more than their ephemeral-storage request first, then lower priority, then the largest
excess. logger goes, killed with 1 second of grace, and stays as Failed with reason Evicted, the
DisruptionTarget condition and the message "The node was low on resource: ephemeral-storage.
Threshold quantity: 644245120, ..." (15% of 4Gi, computed from a float32 percentage as the kubelet
does). Its writable layer is freed when the kubelet removes its dead containers. Meanwhile the node
lifecycle controller taints node-1 node.kubernetes.io/disk-pressure:NoSchedule, so a new pod meant for
node-1 stays Pending ("1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }").
DiskPressure stays True for 5 minutes after the last shortage (evictionPressureTransitionPeriod); then
the condition clears, the taint goes, and the pod is scheduled. The image collector itself also runs
every 5 minutes and frees images from 85% use down to 80%, recording FreeDiskSpaceFailed when unused
images are not enough.

Signs to look for: the node event EvictionThresholdMet "Attempting to reclaim ephemeral-storage";
nginx:1.25, httpd:2.4 and redis:7.2 gone from node-1's images while logger still runs; logger
Evicted with "The node was low on resource: ephemeral-storage. Threshold quantity: 644245120,
available: ...Ki. Container logger was using ...Ki, request is 0, has larger consumption of
ephemeral-storage."; web still Running; node-1 DiskPressure=True (KubeletHasDiskPressure) and the
taint node.kubernetes.io/disk-pressure; extra Pending with the untolerated taint; after 5 minutes
KubeletHasNoDiskPressure, no taint, extra Running.`,
		SummaryZH: "一个不断写可写层的 Pod 把 node-1 的 4Gi 磁盘写满：EvictionThresholdMet，先回收未使用的镜像，再驱逐超出 ephemeral-storage request 的 Pod；DiskPressure、污点、新 Pod 被拒绝，最后恢复",
		TeachesZH: `node-1 有一块 4Gi 的磁盘，镜像和每个容器的可写层都在上面：没有单独的镜像文件系统时（Kubernetes 的
默认做法），kubelet 的两个磁盘信号 nodefs.available 和 imagefs.available 度量的是同一块磁盘。昨天的
report Pod 留下了三个镜像（nginx:1.25、httpd:2.4、redis:7.2）：删除 Pod 并不会删除它的镜像。现在
logger 每秒向可写层写 7Mi，并且没有申请 ephemeral-storage；web 申请了 100Mi，什么也不写。驱逐管理
器每 10s 把剩余空间和硬阈值比较一次：imagefs.available<15%（在用到 85% 时最先越过）和
nodefs.available<10%。磁盘越过阈值时，kubelet 记录 EvictionThresholdMet（"Attempting to reclaim
ephemeral-storage"），报告 DiskPressure=True，并先回收属于节点而不属于某个 Pod 的东西：已退出的容器，
然后是没有容器在用、且首次发现已超过 2 分钟（imageMinimumGCAge）的镜像，最久未用的先删。镜像回收成
功不会记录事件：这些镜像只是从节点状态里消失了。这一次够用了，所以没有 Pod 被驱逐；但 logger 还在
写，下一次越过阈值时已经没有可回收的东西了。于是管理器驱逐一个 Pod，排序和 Kubernetes 对磁盘的排序
一样：先是用量超过 ephemeral-storage request 的，再按优先级，再按超出的多少。logger 被驱逐，只有 1
秒宽限期，以 Failed、原因 Evicted、DisruptionTarget 条件和消息 "The node was low on resource:
ephemeral-storage. Threshold quantity: 644245120, ..." 留在 API 里（4Gi 的 15%，和 kubelet 一样用
float32 百分比算出）。kubelet 删除它已退出的容器时，它的可写层才被释放。与此同时节点生命周期控制器给
node-1 打上 node.kubernetes.io/disk-pressure:NoSchedule 污点，所以要去 node-1 的新 Pod 一直 Pending
（"1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }"）。最后一次空间不足之后
DiskPressure 还会保持 True 5 分钟（evictionPressureTransitionPeriod）；之后条件解除，污点移除，Pod 被
调度。镜像回收器自己也每 5 分钟运行一次，在用量达到 85% 时把它降到 80%，未使用的镜像不够时记录
FreeDiskSpaceFailed。

要看的信号：节点事件 EvictionThresholdMet "Attempting to reclaim ephemeral-storage"；logger 还在运行
时，nginx:1.25、httpd:2.4 和 redis:7.2 已从 node-1 的镜像列表中消失；logger 被驱逐，消息为 "The
node was low on resource: ephemeral-storage. Threshold quantity: 644245120, available: ...Ki.
Container logger was using ...Ki, request is 0, has larger consumption of ephemeral-storage."；web
仍在 Running；node-1 DiskPressure=True（KubeletHasDiskPressure）和污点
node.kubernetes.io/disk-pressure；extra 因不能容忍的污点而 Pending；5 分钟后
KubeletHasNoDiskPressure，污点消失，extra Running。`,
		Cluster: sim.Config{NodeSpecs: nodes, ControllerManager: true, Scheduler: true},
		ZH: catalog{
			"%d. report ran on node-1 and was deleted: its three images stay on the disk":                                 "%d. report 曾在 node-1 上运行，已被删除：它的三个镜像留在磁盘上",
			"%d. kubectl apply: logger (writes 7Mi/s, requests no ephemeral-storage) and web (requests 100Mi), on node-1": "%d. kubectl apply：logger（每秒写 7Mi，没有申请 ephemeral-storage）和 web（申请 100Mi），都在 node-1 上",
			"%d. node-1's disk reaches 85%%: the eviction manager reclaims the unused images, and evicts nobody":          "%d. node-1 的磁盘用到 85%%：驱逐管理器回收未使用的镜像，没有驱逐任何 Pod",
			"%d. logger fills the disk again, with nothing left to reclaim: it is evicted":                                "%d. logger 又把磁盘写满，已没有可回收的东西：它被驱逐",
			"%d. node-1 reports DiskPressure and is tainted: a new pod for node-1 is refused":                             "%d. node-1 报告 DiskPressure 并被打上污点：要去 node-1 的新 Pod 被拒绝",
			"%d. the disk is free again; 5 minutes after the last shortage DiskPressure clears and extra runs":            "%d. 磁盘又有空间了；最后一次空间不足 5 分钟后 DiskPressure 解除，extra 开始运行",
			"%s kubectl describe node node-1: Images include %s":                                                          "%s kubectl describe node node-1：Images 里有 %s",
			"%s kubectl get pods: logger and web Running on node-1":                                                       "%s kubectl get pods：logger 和 web 在 node-1 上 Running",
			"%s kubectl describe node node-1: Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage":      "%s kubectl describe node node-1：Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage（达到驱逐阈值）",
			"%s kubectl describe node node-1: Images no longer include %s; logger still Running":                          "%s kubectl describe node node-1：Images 里已没有 %s；logger 仍在 Running",
			"%s kubectl get pod logger: STATUS Evicted: %s":                                                               "%s kubectl get pod logger：STATUS Evicted（已驱逐）：%s",
			"%s kubectl describe pod logger: Conditions DisruptionTarget True (%s)":                                       "%s kubectl describe pod logger：Conditions DisruptionTarget True（中断目标，%s）",
			"%s web (within its ephemeral-storage request) still Running":                                                 "%s web（用量在 ephemeral-storage request 之内）仍在 Running",
			"%s kubectl describe node node-1: DiskPressure True, %s, %s":                                                  "%s kubectl describe node node-1：DiskPressure True（磁盘压力），%s，%s",
			"%s node-1 tainted node.kubernetes.io/disk-pressure:NoSchedule":                                               "%s node-1 加上了污点 node.kubernetes.io/disk-pressure:NoSchedule",
			"%s kubectl describe pod extra: Pending, FailedScheduling: %s":                                                "%s kubectl describe pod extra：Pending，调度失败 FailedScheduling：%s",
			"%s kubectl describe node node-1: DiskPressure False, %s, %s; taints: %s":                                     "%s kubectl describe node node-1：DiskPressure False（无磁盘压力），%s，%s；污点：%s",
			"%s kubectl get pod extra: Running on node-1, %s after logger was evicted":                                    "%s kubectl get pod extra：在 node-1 上 Running，logger 被驱逐 %s 之后",
		},
		Run: runDiskPressure,
	})
}

// leftImages are the images the report pod leaves on node-1.
var leftImages = []string{"docker.io/library/nginx:1.25", "docker.io/library/httpd:2.4", "docker.io/library/redis:7.2"}

func runDiskPressure(ctx context.Context, s *sim.Session) error {
	s.Step("report ran on node-1 and was deleted: its three images stay on the disk")
	if !applyFile(ctx, s, "report-images.yaml") || !until(ctx, s, time.Minute, "pod report running") {
		return s.Err()
	}
	if err := s.Kubectl.Delete(ctx, "pods", "default", "report", client.DeleteOptions{}); err != nil {
		return err
	}
	if !until(ctx, s, time.Minute, "pod report gone") {
		return s.Err()
	}
	if !s.Until(ctx, time.Minute, sim.Check("node-1 lists the report's images", func() (bool, error) {
		return len(nodeImages(ctx, s, leftImages)) == len(leftImages), nil
	})) {
		return s.Err()
	}
	s.Expect(true, "kubectl describe node node-1: Images include %s", strings.Join(nodeImages(ctx, s, leftImages), ", "))

	s.Step("kubectl apply: logger (writes 7Mi/s, requests no ephemeral-storage) and web (requests 100Mi), on node-1")
	if !applyFile(ctx, s, "disk-pressure.yaml") || !until(ctx, s, time.Minute, "pod logger running", "pod web running") {
		return s.Err()
	}
	s.Expect(true, "kubectl get pods: logger and web Running on node-1")

	s.Step("node-1's disk reaches 85%%: the eviction manager reclaims the unused images, and evicts nobody")
	if !until(ctx, s, 15*time.Minute, "event EvictionThresholdMet Attempting to reclaim ephemeral-storage") {
		return s.Err()
	}
	s.Expect(true, "kubectl describe node node-1: Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage")
	if !s.Until(ctx, time.Minute, sim.Check("node-1 no longer lists the report's images", func() (bool, error) {
		return len(nodeImages(ctx, s, leftImages)) == 0, nil
	})) {
		return s.Err()
	}
	logger, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "logger")
	s.Expect(logger != nil && logger.Status.Phase == api.PodRunning,
		"kubectl describe node node-1: Images no longer include %s; logger still Running", strings.Join(leftImages, ", "))

	s.Step("logger fills the disk again, with nothing left to reclaim: it is evicted")
	if !until(ctx, s, 5*time.Minute, "pod logger reason Evicted") {
		return s.Err()
	}
	logger, _ = sim.Get[api.Pod](ctx, s.Cluster, "default", "logger")
	msg := logger.Status.Message
	s.Expect(logger.Status.Phase == api.PodFailed && strings.HasPrefix(msg,
		"The node was low on resource: ephemeral-storage. Threshold quantity: 644245120, available: ") &&
		strings.Contains(msg, "Container logger was using ") &&
		strings.HasSuffix(msg, "request is 0, has larger consumption of ephemeral-storage. "),
		"kubectl get pod logger: STATUS Evicted: %s", msg)
	disruption := "none"
	if c := api.GetPodCondition(logger, "DisruptionTarget"); c != nil && c.Status == api.ConditionTrue {
		disruption = c.Reason
	}
	s.Expect(disruption == "TerminationByKubelet", "kubectl describe pod logger: Conditions DisruptionTarget True (%s)", disruption)
	web, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "web")
	s.Expect(web != nil && web.Status.Phase == api.PodRunning, "web (within its ephemeral-storage request) still Running")
	evictedAt := s.Cluster.Clock.Now()

	s.Step("node-1 reports DiskPressure and is tainted: a new pod for node-1 is refused")
	if !s.Until(ctx, time.Minute, sim.Check("node-1 DiskPressure=True", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
		return err == nil && nodeCondition(n, api.NodeDiskPressure).Status == api.ConditionTrue, err
	})) {
		return s.Err()
	}
	node, _ := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
	pressure := nodeCondition(node, api.NodeDiskPressure)
	s.Expect(pressure.Reason == "KubeletHasDiskPressure" && pressure.Message == "kubelet has disk pressure",
		"kubectl describe node node-1: DiskPressure True, %s, %s", pressure.Reason, pressure.Message)
	if !until(ctx, s, time.Minute, "node node-1 tainted node.kubernetes.io/disk-pressure:NoSchedule") {
		return s.Err()
	}
	s.Expect(true, "node-1 tainted node.kubernetes.io/disk-pressure:NoSchedule")
	if !applyFile(ctx, s, "disk-extra.yaml") || !until(ctx, s, time.Minute, "event FailedScheduling for pod/extra") {
		return s.Err()
	}
	const refused = "1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }"
	failed := ""
	for _, e := range schedEvents(ctx, s, "FailedScheduling", "extra") {
		failed = e.Message
	}
	s.Expect(strings.Contains(failed, refused), "kubectl describe pod extra: Pending, FailedScheduling: %s", failed)

	s.Step("the disk is free again; 5 minutes after the last shortage DiskPressure clears and extra runs")
	if !until(ctx, s, 10*time.Minute, "pod extra running") {
		return s.Err()
	}
	node, _ = sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
	pressure = nodeCondition(node, api.NodeDiskPressure)
	var taints []string
	for _, t := range node.Spec.Taints {
		taints = append(taints, t.Key+":"+string(t.Effect))
	}
	s.Expect(pressure.Status == api.ConditionFalse && pressure.Reason == "KubeletHasNoDiskPressure" &&
		!hasTaint(node, api.TaintNodeDiskPressure, api.TaintEffectNoSchedule),
		"kubectl describe node node-1: DiskPressure False, %s, %s; taints: %s", pressure.Reason, pressure.Message,
		cmp.Or(strings.Join(taints, ", "), "<none>"))
	extra, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "extra")
	s.Expect(extra != nil && extra.Spec.NodeName == "node-1",
		"kubectl get pod extra: Running on node-1, %s after logger was evicted", s.Cluster.Clock.Now().Sub(evictedAt).Round(time.Second))
	return s.Err()
}

// nodeImages returns those of names that node-1's status lists among its images.
func nodeImages(ctx context.Context, s *sim.Session, names []string) []string {
	n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
	if err != nil {
		return nil
	}
	var out []string
	for _, name := range names {
		if slices.ContainsFunc(n.Status.Images, func(img api.ContainerImage) bool { return slices.Contains(img.Names, name) }) {
			out = append(out, name)
		}
	}
	return out
}

// oom_killed.go: oom-killed, a container whose memory grows past its limits.memory (article
// 2, section 6.2, "OOMKilled"): the kernel's OOM killer ends it inside its cgroup, containerd reports
// reason OOMKilled with exit code 137 (128 + SIGKILL), and the kubelet restarts it, with the usual
// back-off once it keeps happening.
package scenarios

import (
	"context"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "oom-killed",
		Summary: "a container leaking memory past limits.memory: terminated OOMKilled, exit code 137, restarted",
		Teaches: `A pod asks for 32Mi of memory and is limited to 64Mi, but its process leaks 10Mi every second.
The limit is not something the kubelet checks: it becomes the memory limit of the container's cgroup,
and when the working set reaches it the kernel's OOM killer sends SIGKILL to the process. containerd
reports the container exited with code 137 (128 + 9, SIGKILL) and reason OOMKilled; the kubelet sees it
at its next relist and restarts the container per restartPolicy Always: at once the first time, then
with the CrashLoopBackOff back-off (10s, 20s, ...) if it keeps dying. After each kill kubectl get pods
shows STATUS OOMKilled (the status the kubelet writes comes from the runtime's report); after the
second it turns CrashLoopBackOff only when the pod worker retries, 10 seconds later, the sync that found
the container within its back-off. The limit protects the node: only
this container dies, and the node never runs short of memory (compare node-pressure-eviction, where a
pod without a limit makes the kubelet evict pods instead).

Signs to look for: kubectl describe pod shows Last State: Terminated, Reason: OOMKilled, Exit Code:
137; RESTARTS 1; after the second OOM kill the STATUS is OOMKilled, then CrashLoopBackOff; the node's
MemoryPressure stays False.`,
		SummaryZH: "容器内存泄漏超过 limits.memory：以 OOMKilled 终止，退出码 137，被重启",
		TeachesZH: `一个 Pod 请求 32Mi 内存，限制为 64Mi，但它的进程每秒泄漏 10Mi。limit 不是 kubelet 去检查的东西：它成
为容器 cgroup 的内存上限，working set 达到上限时，内核的 OOM killer 向进程发送 SIGKILL。containerd
报告容器以退出码 137（128 + 9，SIGKILL）退出，原因 OOMKilled；kubelet 在下一次 relist 时看到，按
restartPolicy Always 重启容器：第一次立刻重启，如果一直死，之后按 CrashLoopBackOff 的退避（10s、
20s……）重启。每次被杀之后 kubectl get pods 先显示 STATUS OOMKilled（kubelet 写的状态来自运行时的报
告）；第二次之后，要等 pod worker 在 10 秒后重试那次发现容器仍在退避期内的同步，才变成 CrashLoopBackOff。limit 保护了节点：只有这个容器死掉，节点的内存从不短缺（对比 node-pressure-eviction，那
里一个没有 limit 的 Pod 让 kubelet 转而去驱逐 Pod）。

要看的信号：kubectl describe pod 显示 Last State: Terminated、Reason: OOMKilled、Exit Code: 137；
RESTARTS 为 1；第二次被 OOM kill 之后 STATUS 先是 OOMKilled，然后 CrashLoopBackOff；节点的 MemoryPressure
保持 False。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply: a pod limited to 64Mi of memory whose working set grows 10Mi every second":           "%d. kubectl apply：一个内存上限 64Mi 的 Pod，它的工作集每秒增长 10Mi",
			"%d. The working set reaches the 64Mi limit: the OOM killer ends the container, the kubelet restarts it": "%d. 工作集达到 64Mi 上限：OOM killer 杀掉容器，kubelet 重启它",
			"%d. It leaks again and is killed again: now the restarts wait in CrashLoopBackOff":                      "%d. 它再次泄漏、再次被杀：现在重启要在 CrashLoopBackOff 里等待",
			"%s QoS class Burstable: requests below limits":                                                          "%s QoS 类别 Burstable：requests 低于 limits",
			"%s it ran %s by kubectl's whole seconds: nginx's 8Mi plus 10Mi/s passes 64Mi after 5.6s":                "%s 按 kubectl 的整秒计它运行了 %s：nginx 的 8Mi 加上每秒 10Mi，5.6 秒后超过 64Mi",
			"%s kubectl describe pod memory-hog: Last State: Terminated, Reason: OOMKilled, Exit Code: 137":          "%s kubectl describe pod memory-hog：Last State: Terminated，Reason: OOMKilled，Exit Code: 137（内存超限被杀）",
			"%s kubectl get pod memory-hog: STATUS CrashLoopBackOff, RESTARTS %d, last state OOMKilled (137)":        "%s kubectl get pod memory-hog：STATUS CrashLoopBackOff，重启 %d 次，上次状态 OOMKilled（137）",
			"%s kubectl get pods -w, STATUS (RESTARTS): memory-hog %s":                                               "%s kubectl get pods -w（持续观察），STATUS（RESTARTS）：memory-hog %s",
			"%s node %s: MemoryPressure False: the limit kept the leak inside the container":                         "%s 节点 %s：MemoryPressure False：limit 把泄漏关在了容器之内",
		},
		Run: runOOMKilled,
	})
}

func runOOMKilled(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: a pod limited to 64Mi of memory whose working set grows 10Mi every second")
	if !applyFile(ctx, s, "memory-hog.yaml") {
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "pod memory-hog running") {
		return s.Err()
	}
	p, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "memory-hog")
	s.Expect(p != nil && p.Status.QOSClass == api.PodQOSBurstable, "QoS class Burstable: requests below limits")

	s.Step("The working set reaches the 64Mi limit: the OOM killer ends the container, the kubelet restarts it")
	if !s.Until(ctx, time.Minute, sim.Check("memory-hog restarted after an OOM kill", func() (bool, error) {
		p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "memory-hog")
		return err == nil && restarts(p) >= 1, err
	})) {
		return s.Err()
	}
	p, _ = sim.Get[api.Pod](ctx, s.Cluster, "default", "memory-hog")
	last := containerStatus(p, "app").LastTerminationState.Terminated
	s.Expect(last != nil && last.Reason == "OOMKilled" && last.ExitCode == 137,
		"kubectl describe pod memory-hog: Last State: Terminated, Reason: OOMKilled, Exit Code: 137")
	if last != nil {
		ran := last.FinishedAt.Sub(last.StartedAt.Time)
		s.Expect(ran >= 5*time.Second && ran <= 7*time.Second+lateness(s),
			"it ran %s by kubectl's whole seconds: nginx's 8Mi plus 10Mi/s passes 64Mi after 5.6s", ran)
	}

	s.Step("It leaks again and is killed again: now the restarts wait in CrashLoopBackOff")
	_, watched := watchStatuses(ctx, s, "", "CrashLoopBackOff", "")
	lines := watchLines(watched)
	s.Expect(containsInOrder(lines, []string{"Running (1)", "OOMKilled (1)", "CrashLoopBackOff (1)"}),
		"kubectl get pods -w, STATUS (RESTARTS): memory-hog %s", strings.Join(lines, ", "))
	p, _ = sim.Get[api.Pod](ctx, s.Cluster, "default", "memory-hog")
	if p == nil {
		return s.Err()
	}
	last = containerStatus(p, "app").LastTerminationState.Terminated
	s.Expect(last != nil && last.Reason == "OOMKilled" && last.ExitCode == 137,
		"kubectl get pod memory-hog: STATUS CrashLoopBackOff, RESTARTS %d, last state OOMKilled (137)", restarts(p))
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", p.Spec.NodeName)
	if err != nil {
		return err
	}
	s.Expect(nodeCondition(node, api.NodeMemoryPressure).Status == api.ConditionFalse,
		"node %s: MemoryPressure False: the limit kept the leak inside the container", node.Name)
	return s.Err()
}

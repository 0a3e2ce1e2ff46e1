// init_container_failure.go: init-container-failure, a Deployment whose pod has an init container
// that exits 1. The app container is never created; kubectl shows Init:0/1 while the init container
// runs, Init:Error when it fails, Init:CrashLoopBackOff while the kubelet waits to restart it. A fixed
// template rolls out a new pod that goes Init:0/1, PodInitializing, Running.
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
		Name:     "init-container-failure",
		StepOnly: true,
		Summary:  "an init container exits 1: Init:0/1, Init:Error, Init:CrashLoopBackOff (Init:Error for good under restartPolicy Never), the app container never starts; a fixed template goes Init:0/1, PodInitializing, Running",
		Teaches: `Init containers run before the app containers, one at a time and in order, and each must exit 0
before the next starts; only then are the app containers created. Here wait-for-db gives up after 2
seconds and exits 1. The kubelet restarts it (restartPolicy Always restarts a failed init container;
Never would fail the pod), with the same back-off as a crashing container: at once the first time,
then 10s, 20s, 40s ... up to 5 minutes. kubectl get pods shows where initialization stands, as its
printer reads the init container statuses first: Init:0/1 while the first of one runs (or its image is
pulled), Init:Error once it has failed, Init:CrashLoopBackOff while the kubelet waits out the
back-off. Under Always, Init:Error comes first after each failure: the status the kubelet writes then
is built from what the runtime reported (the run terminated with Error), and the sync that finds the
container in back-off fails; the pod worker retries a failed sync 10s later (backOffPeriod), and only
that status says Init:CrashLoopBackOff. A bare pod with restartPolicy Never tries once: it stays
Init:Error, and the pod is Failed. The app
container waits with reason PodInitializing and is never created; the Initialized condition is False
(ContainersNotInitialized, "containers with incomplete status: [wait-for-db]"); the pod stays Pending
and never becomes Ready, so the Deployment is not available. Fixing the template (an init command that
succeeds) rolls out a new ReplicaSet: its pod goes Init:0/1, then PodInitializing (initialization
done, the app container being created: here, its image pulled), then Running, and the old pod goes.

Signs to look for: the STATUS sequence Init:0/1, Init:Error, Init:CrashLoopBackOff; Init:Error and phase Failed
under restartPolicy Never, never retried; the init
container's restart count growing while the app container has none; Initialized=False with its
message; after the fix, Init:0/1, PodInitializing, Running for the new pod.`,
		SummaryZH: "init 容器以退出码 1 失败：Init:0/1、Init:Error、Init:CrashLoopBackOff（restartPolicy Never 时一直是 Init:Error），应用容器始终没有启动；修好模板后新 Pod 经过 Init:0/1、PodInitializing、Running",
		TeachesZH: `init 容器在应用容器之前运行，一次一个、按顺序，每个都必须以 0 退出，下一个才开始；之后才创建应用容器。
这里 wait-for-db 等了 2 秒就放弃，以 1 退出。kubelet 重启它（restartPolicy Always 会重启失败的 init 容
器；Never 则让 Pod 失败），退避和崩溃的容器一样：第一次立即重启，然后 10s、20s、40s……最多 5 分钟。
kubectl get pods 显示初始化进行到哪一步，因为它的打印逻辑先看 init 容器的状态：第一个（共一个）运行时
（或拉取它的镜像时）是 Init:0/1，失败之后是 Init:Error，kubelet 等待退避结束时是 Init:CrashLoopBackOff。
在 Always 下，每次失败之后先出现 Init:Error：kubelet 这时写的状态来自运行时的报告（这次运行以 Error 结
束），而发现容器处于退避中的那次同步失败了；pod worker 在 10s（backOffPeriod）后重试失败的同步，那次的
状态才是 Init:CrashLoopBackOff。restartPolicy 为 Never 的 Pod 只试一次：一直是 Init:Error，Pod 变为
Failed。应用容器以原因
PodInitializing 等待，从未被创建；Initialized 状况为 False（ContainersNotInitialized，"containers
with incomplete status: [wait-for-db]"）；Pod 一直 Pending、从不 Ready，所以 Deployment 不可用。修好
模板（init 命令会成功）会滚动出一个新的 ReplicaSet：它的 Pod 先是 Init:0/1，然后 PodInitializing（初
始化完成，正在创建应用容器：这里是在拉它的镜像），然后 Running，旧 Pod 被删掉。

要看的信号：STATUS 依次为 Init:0/1、Init:Error、Init:CrashLoopBackOff；restartPolicy Never 时为 Init:Error 且 phase
Failed，不再重试；init 容器的重启次数不断增加，而
应用容器一次也没有；Initialized=False 及其消息；修好之后新 Pod 依次为 Init:0/1、PodInitializing、
Running。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f migrate-once.yaml: the same init container, restartPolicy Never": "%d. kubectl apply -f migrate-once.yaml：同样的 init 容器，restartPolicy Never",
			"%s a minute later: still Init:Error, restarts %d: restartPolicy Never runs it once":   "%s 一分钟后：仍是 Init:Error，重启 %d 次：restartPolicy Never 只运行一次",
			"%d. kubectl apply -f web.yaml: init container wait-for-db exits 1 after 2 seconds":    "%d. kubectl apply -f web.yaml：init 容器 wait-for-db 2 秒后以 1 退出",
			"%d. Two minutes later: still initializing, the app container never created":           "%d. 两分钟后：仍在初始化，应用容器从未创建",
			"%d. kubectl apply -f web-fixed.yaml: the init container now succeeds":                 "%d. kubectl apply -f web-fixed.yaml：init 容器现在会成功",
			"%s kubectl get pods -w: %s %s": "%s kubectl get pods -w（持续观察）：%s %s",
			"%s init container wait-for-db: restarts %d, last state Terminated (%s, exit code %d)": "%s init 容器 wait-for-db：重启 %d 次，上一次状态 Terminated（%s，退出码 %d）",
			"%s app container web: waiting (%s), restarts %d: never created":                       "%s 应用容器 web：等待中（%s），重启 %d 次：从未被创建",
			"%s condition Initialized=%s (%s): %s":                                                 "%s 状况 Initialized=%s（%s）：%s",
			"%s deployment web: %d/%d ready":                                                       "%s deployment web：%d/%d 就绪",
			"%s the old pod %s is gone":                                                            "%s 旧 Pod %s 已被删除",
		},
		Run: runInitContainerFailure,
	})
}

func runInitContainerFailure(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f web.yaml: init container wait-for-db exits 1 after 2 seconds")
	if !applyFile(ctx, s, "web-init.yaml") {
		return s.Err()
	}
	old, watched := watchStatuses(ctx, s, "app=web", "Init:CrashLoopBackOff", "")
	seen := statusesOf(watched)
	s.Expect(containsInOrder(seen, []string{"Init:0/1", "Init:Error", "Init:CrashLoopBackOff"}), "kubectl get pods -w: %s %s", old, strings.Join(seen, ", "))

	s.Step("Two minutes later: still initializing, the app container never created")
	if err := s.Driver.Advance(ctx, 2*time.Minute); err != nil {
		return err
	}
	p := objectNow[api.Pod](ctx, s, "default", old)
	if p == nil || len(p.Status.InitContainerStatuses) != 1 || len(p.Status.ContainerStatuses) != 1 {
		s.Expect(false, "init container wait-for-db: restarts %d, last state Terminated (%s, exit code %d)", 0, "none", 0)
		return s.Err()
	}
	ics, cs := p.Status.InitContainerStatuses[0], p.Status.ContainerStatuses[0]
	last := ics.LastTerminationState.Terminated
	s.Expect(ics.RestartCount >= 3 && last != nil && last.ExitCode == 1,
		"init container wait-for-db: restarts %d, last state Terminated (%s, exit code %d)", ics.RestartCount, last.Reason, last.ExitCode)
	s.Expect(cs.State.Waiting != nil && cs.State.Waiting.Reason == "PodInitializing" && cs.RestartCount == 0 && cs.ContainerID == "",
		"app container web: waiting (%s), restarts %d: never created", waitingReason(p), cs.RestartCount)
	if c := api.GetPodCondition(p, api.PodInitialized); c != nil {
		s.Expect(c.Status == api.ConditionFalse && c.Message == "containers with incomplete status: [wait-for-db]",
			"condition Initialized=%s (%s): %s", c.Status, c.Reason, c.Message)
	}
	if d := objectNow[api.Deployment](ctx, s, "default", "web"); d != nil {
		s.Expect(d.Status.ReadyReplicas == 0, "deployment web: %d/%d ready", d.Status.ReadyReplicas, *d.Spec.Replicas)
	}

	s.Step("kubectl apply -f migrate-once.yaml: the same init container, restartPolicy Never")
	if !applyFile(ctx, s, "migrate-once.yaml") {
		return s.Err()
	}
	_, watched = watchStatuses(ctx, s, "", "Init:Error", "")
	seen = statusesOf(watched)
	once := objectNow[api.Pod](ctx, s, "default", "migrate-once")
	s.Expect(containsInOrder(seen, []string{"Init:0/1", "Init:Error"}) && once.Status.Phase == api.PodFailed,
		"kubectl get pods -w: %s %s", "migrate-once", strings.Join(seen, ", ")+", phase "+string(once.Status.Phase))
	if err := s.Driver.Advance(ctx, time.Minute); err != nil {
		return err
	}
	once = objectNow[api.Pod](ctx, s, "default", "migrate-once")
	s.Expect(once.Status.InitContainerStatuses[0].RestartCount == 0 && api.PodStatusColumn(once) == "Init:Error",
		"a minute later: still Init:Error, restarts %d: restartPolicy Never runs it once", once.Status.InitContainerStatuses[0].RestartCount)

	s.Step("kubectl apply -f web-fixed.yaml: the init container now succeeds")
	if !applyFile(ctx, s, "web-init-fixed.yaml") {
		return s.Err()
	}
	fresh, watched := watchStatuses(ctx, s, "app=web", "Running", old)
	seen = statusesOf(watched)
	s.Expect(containsInOrder(seen, []string{"Init:0/1", "PodInitializing", "Running"}), "kubectl get pods -w: %s %s", fresh, strings.Join(seen, ", "))
	if until(ctx, s, 0, "deployment web available", "pods -l app=web count 1") {
		s.Expect(objectNow[api.Pod](ctx, s, "default", old) == nil, "the old pod %s is gone", old)
	}
	return s.Err()
}

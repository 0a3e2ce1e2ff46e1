// custom_scheduler.go: custom-scheduler, a pod that names a scheduler nobody runs. Every
// scheduler only takes pods whose spec.schedulerName is one of its profiles, so the pod waits, Pending,
// with no event and no condition: nobody has even tried. Once a second scheduler with a profile of
// that name starts, it schedules the pod.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/scheduler/plugins"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "custom-scheduler",
		Summary: "a pod with schedulerName my-scheduler and no such scheduler: Pending with no FailedScheduling event; scheduled once my-scheduler runs",
		Teaches: `A cluster may run several schedulers (or one kube-scheduler with several profiles); each pod names
the one it wants in spec.schedulerName, which defaults to "default-scheduler". A scheduler ignores pods
that name anything else: it does not queue them, try them, or write about them. So a pod that names a
scheduler nobody runs stays Pending silently: no FailedScheduling event, no PodScheduled condition,
nothing in kubectl describe but the Pending phase. Starting a second scheduler (its own Deployment in
a real cluster, with its own leader-election Lease) whose profile is called my-scheduler fixes it.

Signs to look for: pod special Pending after a minute with no events from any scheduler and no
PodScheduled condition; my-scheduler acquiring the Lease kube-system/my-scheduler; then "Successfully
assigned default/special to node-N" from my-scheduler (the event's source), not default-scheduler.`,
		SummaryZH: "一个 schedulerName 为 my-scheduler 的 Pod，而这个调度器不存在：Pending 且没有 FailedScheduling 事件；my-scheduler 跑起来后才被调度",
		TeachesZH: `一个集群可以运行多个调度器（或一个带多个 profile 的 kube-scheduler）；每个 Pod 在 spec.schedulerName
里指定它要的那个，默认是 "default-scheduler"。调度器忽略指定了别的名字的 Pod：不入队、不尝试、也不为
它写任何东西。所以一个指定了没人运行的调度器的 Pod 会默默地一直 Pending：没有 FailedScheduling 事
件，没有 PodScheduled 状况，kubectl describe 里除了 Pending 阶段什么都没有。启动第二个调度器（在真实
集群里是它自己的 Deployment，带自己的 leader 选举 Lease），profile 名为 my-scheduler，问题就解决了。

要看的信号：一分钟后 Pod special 仍然 Pending，没有任何调度器的事件，也没有 PodScheduled 状况；
my-scheduler 获得 Lease kube-system/my-scheduler；然后出现来自 my-scheduler（事件的 source）而不是
default-scheduler 的 "Successfully assigned default/special to node-N"。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f special.yaml: schedulerName my-scheduler, which nobody runs":                               "%d. kubectl apply -f special.yaml：schedulerName 是 my-scheduler，但没有人运行它",
			"%d. A minute passes: kube-scheduler (profile default-scheduler) leaves the pod alone":                           "%d. 过了一分钟：kube-scheduler（profile default-scheduler）根本不理这个 Pod",
			"%d. Start a second scheduler with a profile named my-scheduler (the default plugins), leading on its own Lease": "%d. 启动第二个调度器，profile 名为 my-scheduler（默认插件），用它自己的 Lease 做选主",
			"%s and no PodScheduled condition": "%s 也没有 PodScheduled 状况",
			"%s event Normal Scheduled from my-scheduler: Successfully assigned default/special to %s": "%s 来自 my-scheduler 的事件 Normal Scheduled：Successfully assigned default/special to %s",
			"%s kubectl describe pod special: no FailedScheduling event, nobody has tried":             "%s kubectl describe pod special：没有 FailedScheduling 事件，还没有调度器尝试过",
			"%s kubectl get pod special: Pending, no node":                                             "%s kubectl get pod special：Pending，没有节点",
			"%s still no FailedScheduling event: my-scheduler found a node at once":                    "%s 仍然没有 FailedScheduling 事件：my-scheduler 立刻找到了节点",
		},
		Run: runCustomScheduler,
	})
}

func runCustomScheduler(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f special.yaml: schedulerName my-scheduler, which nobody runs")
	if !applyFile(ctx, s, "special-pod.yaml") {
		return s.Err()
	}

	s.Step("A minute passes: kube-scheduler (profile default-scheduler) leaves the pod alone")
	if err := s.Driver.Advance(ctx, time.Minute); err != nil {
		return err
	}
	special := objectNow[api.Pod](ctx, s, "default", "special")
	s.Expect(special != nil && special.Spec.NodeName == "" && special.Spec.SchedulerName == "my-scheduler",
		"kubectl get pod special: Pending, no node")
	s.Expect(len(schedEvents(ctx, s, "FailedScheduling", "special")) == 0, "kubectl describe pod special: no FailedScheduling event, nobody has tried")
	s.Expect(schedCondition(special) == nil, "and no PodScheduled condition")

	s.Step("Start a second scheduler with a profile named my-scheduler (the default plugins), leading on its own Lease")
	if _, err := s.StartScheduler(ctx, "my-scheduler", "my-scheduler", plugins.DefaultProfile("my-scheduler")); err != nil {
		s.Expect(false, "my-scheduler starts: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 0, "pod special running") {
		return s.Err()
	}
	special = objectNow[api.Pod](ctx, s, "default", "special")
	scheduled := schedEvents(ctx, s, "Scheduled", "special")
	s.Expect(len(scheduled) == 1 && scheduled[0].Source.Component == "my-scheduler",
		"event Normal Scheduled from my-scheduler: Successfully assigned default/special to %s", special.Spec.NodeName)
	s.Expect(len(schedEvents(ctx, s, "FailedScheduling", "special")) == 0, "still no FailedScheduling event: my-scheduler found a node at once")
	return s.Err()
}

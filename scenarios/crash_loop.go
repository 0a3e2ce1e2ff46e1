// crash_loop.go: crash-loop, a container that exits 1 as soon as it starts (article 2,
// section 6.2, "the pod keeps restarting"): the kubelet restarts it per restartPolicy Always, each
// time after a longer back-off (10s doubling to 5 minutes), and the pod shows CrashLoopBackOff.
package scenarios

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "crash-loop",
		Summary: "a container that exits 1 right after it starts: restarts with back-off 10s, 20s, 40s ... up to 5m, CrashLoopBackOff",
		Teaches: `A pod runs busybox with sh -c "exit 1": the container starts and exits with code 1 at once. The
kubelet notices through its PLEG relist (every second), and since restartPolicy is Always it starts the
container again: the first time at once, then only after a back-off that starts at 10s and doubles at
each crash (20s, 40s, 1m20s, 2m40s) up to 5 minutes, per pod and container. After each exit kubectl get
pods first shows STATUS Error: the status the kubelet writes comes from what the runtime reported, the
container terminated with reason Error. The sync that finds an exit within the back-off fails, and the
pod worker retries it 10 to 15 seconds later (10 seconds plus a random jitter of up to half); only then
does the status say Waiting, reason CrashLoopBackOff, and every retry, 10 to 15 seconds apart, records
the BackOff event again until one finds the back-off over. A
container that then runs for 10 minutes without crashing starts over at 10s.

Signs to look for: RESTARTS growing; STATUS Error (RESTARTS 0), Error (1), then CrashLoopBackOff (1)
10 to 15 seconds later; the waiting message "back-off 10s
restarting failed container=app pod=crasher_default(...)" whose delay doubles up to 5m0s; Last State
Terminated, reason Error, exit code 1; the event "Back-off restarting failed container app in pod
crasher_default(...)", counted up as it repeats.`,
		SummaryZH: "容器一启动就以 1 退出：按退避 10s、20s、40s……最长 5m 重启，CrashLoopBackOff",
		TeachesZH: `一个 Pod 运行 busybox，命令是 sh -c "exit 1"：容器一启动就以退出码 1 结束。kubelet 通过 PLEG 的
relist（每秒一次）发现这件事，因为 restartPolicy 是 Always，它再次启动容器：第一次立刻重启，之后要等
一段退避时间，从 10s 开始，每崩溃一次翻倍（20s、40s、1m20s、2m40s），上限 5 分钟，按 Pod 和容器分别
计算。每次退出之后，kubectl get pods 先显示 STATUS Error：kubelet 写的状态来自运行时的报告，容器以
reason Error 结束。在退避期内发现退出的那次同步会失败，pod worker 在 10 到 15 秒后重试（10 秒再加
最多一半的随机抖动）；这时状态才变成 Waiting，原因 CrashLoopBackOff，之后每隔 10 到 15 秒的重试都会再
记一次 BackOff 事件，直到某次重试发现退避已结束。容器如果之后连续运行 10 分钟不崩溃，退避就从 10s 重新开始。

要看的信号：RESTARTS 不断增加；STATUS 依次为 Error（RESTARTS 0）、Error（1），10 到 15 秒后 CrashLoopBackOff
（1）；等待消息 "back-off 10s restarting failed
container=app pod=crasher_default(...)"，其中的延迟翻倍直到 5m0s；Last State 为 Terminated，reason
Error，exit code 1；事件 "Back-off restarting failed container app in pod crasher_default(...)"，重
复时计数递增。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply: a pod whose only container runs sh -c \"exit 1\"":                                                                    "%d. kubectl apply：一个 Pod，它唯一的容器运行 sh -c \"exit 1\"",
			"%d. It starts, exits 1, and is restarted at once: the first crash costs no back-off":                                                    "%d. 容器启动后立刻以 1 退出，马上被重启：第一次崩溃不需要退避等待",
			"%s kubectl get pods -w, STATUS (RESTARTS): crasher %s":                                                                                  "%s kubectl get pods -w（持续观察），STATUS（RESTARTS）：crasher %s",
			"%s STATUS Error for %s, then CrashLoopBackOff: the pod worker retried the failed sync after backOffPeriod (10s plus up to 50%% jitter)": "%s STATUS Error 持续 %s，然后 CrashLoopBackOff：pod worker 在 backOffPeriod（10s，另加最多 50%% 的随机抖动）之后重试了失败的同步",
			"%d. Each crash doubles the back-off before the next restart, up to the 5-minute cap":                                                    "%d. 每崩溃一次，下次重启前的退避时间翻倍，直到 5 分钟的上限",
			"%d. What kubectl get pods and kubectl describe pod show":                                                                                "%d. 现在 kubectl get pods 和 kubectl describe pod 能看到什么",
			"%s event Warning BackOff: Back-off restarting failed container app in pod crasher_default(...) (x%d)":                                   "%s 事件 Warning BackOff：Back-off restarting failed container app in pod crasher_default(...)（x%d）",
			"%s kubectl describe pod crasher: Last State Terminated, Reason Error, Exit Code 1":                                                      "%s kubectl describe pod crasher：Last State Terminated，Reason Error，Exit Code 1（上一次退出的状态）",
			"%s kubectl get pod crasher: READY 0/1, STATUS CrashLoopBackOff, RESTARTS %d":                                                            "%s kubectl get pod crasher：READY 0/1，STATUS CrashLoopBackOff，重启 %d 次",
			"%s restartCount %d, STATUS CrashLoopBackOff: %s":                                                                                        "%s 重启次数 %d，STATUS CrashLoopBackOff：%s",
			"%s the back-offs were %s: doubling from 10s, and 2m40s doubled is 5m20s, so the cap of 5m0s holds it":                                   "%s 退避时间依次为 %s：从 10s 开始翻倍，2m40s 翻倍是 5m20s，所以被 5m0s 的上限卡住",
		},
		Run: runCrashLoop,
	})
}

func runCrashLoop(ctx context.Context, s *sim.Session) error {
	s.Step(`kubectl apply: a pod whose only container runs sh -c "exit 1"`)
	if !applyFile(ctx, s, "crasher.yaml") {
		return s.Err()
	}

	s.Step("It starts, exits 1, and is restarted at once: the first crash costs no back-off")
	// kubectl get pods -w: Error after each exit, CrashLoopBackOff only once the pod worker retries the
	// sync that found the second exit within its back-off.
	_, watched := watchStatuses(ctx, s, "", "CrashLoopBackOff", "")
	lines := watchLines(watched)
	s.Expect(containsInOrder(lines, []string{"Error (0)", "Error (1)", "CrashLoopBackOff (1)"}),
		"kubectl get pods -w, STATUS (RESTARTS): crasher %s", strings.Join(lines, ", "))
	if n := len(watched); n >= 2 {
		shown := watched[n-1].at.Sub(watched[n-2].at)
		s.Expect(watched[n-2].status == "Error" && shown >= 10*time.Second && shown < 16*time.Second, // and the syncLoop's next 1s tick
			"STATUS Error for %s, then CrashLoopBackOff: the pod worker retried the failed sync after backOffPeriod (10s plus up to 50%% jitter)", shown.Round(time.Millisecond))
	}
	p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "crasher")
	if err != nil {
		return err
	}
	cs := containerStatus(p, "app")
	s.Expect(cs != nil && cs.LastTerminationState.Terminated != nil && cs.LastTerminationState.Terminated.ExitCode == 1 &&
		cs.LastTerminationState.Terminated.Reason == "Error", "kubectl describe pod crasher: Last State Terminated, Reason Error, Exit Code 1")

	s.Step("Each crash doubles the back-off before the next restart, up to the 5-minute cap")
	// The kubelet writes the current delay into the waiting message; follow it restart after restart.
	var delays []string
	for len(delays) < 6 {
		var p *api.Pod
		if !s.Until(ctx, 6*time.Minute, sim.Check(fmt.Sprintf("restart %d, then CrashLoopBackOff", len(delays)+1), func() (bool, error) {
			var err error
			p, err = sim.Get[api.Pod](ctx, s.Cluster, "default", "crasher")
			return err == nil && restarts(p) > len(delays) && backoffDelay(p) != "", err
		})) {
			return s.Err()
		}
		delays = append(delays, backoffDelay(p))
		s.Expect(true, "restartCount %d, STATUS CrashLoopBackOff: %s", restarts(p), waitingMessage(p))
	}
	s.Expect(strings.Join(delays, " ") == "10s 20s 40s 1m20s 2m40s 5m0s",
		"the back-offs were %s: doubling from 10s, and 2m40s doubled is 5m20s, so the cap of 5m0s holds it", strings.Join(delays, ", "))

	s.Step("What kubectl get pods and kubectl describe pod show")
	p, err = sim.Get[api.Pod](ctx, s.Cluster, "default", "crasher")
	if err != nil {
		return err
	}
	s.Expect(waitingReason(p) == "CrashLoopBackOff" && restarts(p) >= 6,
		"kubectl get pod crasher: READY 0/1, STATUS CrashLoopBackOff, RESTARTS %d", restarts(p))
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	backoff := sim.FindEvent(events, "BackOff", "Back-off restarting failed container app in pod crasher_default(")
	s.Expect(backoff != nil && backoff.Type == api.EventTypeWarning && backoff.Count > 1,
		"event Warning BackOff: Back-off restarting failed container app in pod crasher_default(...) (x%d)", eventCount(backoff))
	return s.Err()
}

// backoffDelay is the delay in a CrashLoopBackOff waiting message ("back-off 40s restarting failed
// container=..."), or "".
func backoffDelay(p *api.Pod) string {
	if waitingReason(p) != "CrashLoopBackOff" {
		return ""
	}
	var delay string
	if _, err := fmt.Sscanf(waitingMessage(p), "back-off %s restarting", &delay); err != nil {
		return ""
	}
	return delay
}

// image_pull_backoff.go: image-pull-backoff, three images a node cannot pull (article 2,
// section 6.2, "ImagePullBackOff"): a typo in the repository name, a private repository without
// credentials, and an image built for amd64 only on an arm64 node. Each fails with containerd's own
// error; the kubelet reports ErrImagePull, then waits with ImagePullBackOff, trying again after at
// least 10s, 20s, 40s ... up to 5 minutes (at the first retry of the pod worker, every 10 to 16 s,
// after the back-off ends).
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
	nodes := sim.DefaultNodes(3)
	nodes[2].Arch = "arm64"
	register(sim.Scenario{
		Name:     "image-pull-backoff",
		StepOnly: true,
		Summary:  "ngnix:1.25 (a typo), a private image without credentials, an amd64-only image on an arm64 node: ErrImagePull, then ImagePullBackOff",
		Teaches: `Three pods whose image no node can pull. The scheduler places them (it does not look at images);
the kubelet creates the sandbox and asks containerd to pull, which fails, each time in its own words:
ngnix:1.25 does not exist on Docker Hub, which answers as if it were private ("pull access denied,
repository does not exist or may require authorization"); registry.example.com/private/app needs
credentials the pod does not give (no imagePullSecrets: "no basic auth credentials"); and
registry.example.com/legacy/app was built for amd64 only, so on the arm64 node node-3 there is "no match
for platform in manifest". The kubelet records "Failed to pull image ..." and "Error: ErrImagePull",
then puts the image in back-off for that pod. The back-off starts at 10s and doubles after each failed
pull (20s, 40s, 1m20s, 2m40s) up to 5 minutes, but nothing wakes the kubelet when it ends: the pod
worker retries the failed sync every 10 to 16 seconds, and each retry within the back-off fails at once
("Back-off pulling image ...", "Error: ImagePullBackOff"); the first retry after it pulls again. The
status lags one sync behind, as a real kubelet's does (it writes the status before it acts, from the
last sync's result): ErrImagePull from the sync after a failed pull, ImagePullBackOff from the retry
after one that found the back-off. So kubectl get pods -w goes ErrImagePull, ImagePullBackOff,
ErrImagePull, ... Nothing else happens to the pod: it stays Pending until someone fixes the image or the
credentials.

Signs to look for: the events "Failed to pull image ...: <containerd's error>", "Error: ErrImagePull",
"Back-off pulling image ..." and "Error: ImagePullBackOff"; STATUS ErrImagePull, then ImagePullBackOff
about 10 seconds later; the "Pulling image" event counted up (x2, x3, ...) with the gaps between a
failed pull and the next one at least 10s, 20s, 40s, 1m20s (the scenario stops there; the kubelet goes
on to 2m40s and 5m0s), and "Back-off pulling image" counted up faster.`,
		SummaryZH: "ngnix:1.25（拼错了）、没有凭据的私有镜像、只有 amd64 的镜像遇上 arm64 节点：先 ErrImagePull，再 ImagePullBackOff",
		TeachesZH: `三个 Pod，它们的镜像哪个节点都拉不下来。调度器照样放置它们（调度器不看镜像）；kubelet 创建沙箱，请
containerd 拉镜像，结果失败，每次各有各的说法：ngnix:1.25 在 Docker Hub 上不存在，Docker Hub 的回答
却像它是私有的一样（"pull access denied, repository does not exist or may require authorization"）；
registry.example.com/private/app 需要凭据，而 Pod 没给（没有 imagePullSecrets："no basic auth
credentials"）；registry.example.com/legacy/app 只构建了 amd64 版本，所以在 arm64 节点 node-3 上是
"no match for platform in manifest"。kubelet 记下 "Failed to pull image ..." 和 "Error:
ErrImagePull"，然后让这个 Pod 的这个镜像进入退避。退避从 10s 开始，每次拉取失败翻倍（20s、40s、
1m20s、2m40s），上限 5 分钟；但退避结束时没有谁叫醒 kubelet：pod worker 每 10 到 16 秒重试一次失败的
同步，退避期内的重试立刻失败（"Back-off pulling image ..."、"Error: ImagePullBackOff"），退避结束后的
第一次重试才再拉。状态比同步慢一拍，和真实的 kubelet 一样（它先根据上一次同步的结果写状态，再动手）：
拉取失败后的下一次同步显示 ErrImagePull，遇到退避的那次重试之后才显示 ImagePullBackOff。所以
kubectl get pods -w 看到的是 ErrImagePull、ImagePullBackOff、ErrImagePull……Pod 不会再有别的变化：它一直
Pending，直到有人修好镜像或凭据。

要看的信号：事件 "Failed to pull image ...: <containerd 的错误>"、"Error: ErrImagePull"、
"Back-off pulling image ..." 和 "Error: ImagePullBackOff"；STATUS 先是 ErrImagePull，大约 10 秒后变成
ImagePullBackOff；"Pulling image" 事件的计数递增（x2、x3……），一次失败与下一次拉取之间的间隔至少是
10s、20s、40s、1m20s（场景到此为止；kubelet 会继续到 2m40s 和 5m0s），"Back-off pulling image" 的计数
涨得更快。`,
		Cluster: sim.Config{NodeSpecs: nodes, ControllerManager: true, Scheduler: true},
		ZH: catalog{
			"%d. kubectl apply: web (ngnix:1.25, a typo), private-app (no imagePullSecrets), legacy-app (amd64 only, for an arm64 node)": "%d. kubectl apply：web（ngnix:1.25，拼写错误）、private-app（没有 imagePullSecrets）、legacy-app（只有 amd64 镜像，却要跑在 arm64 节点上）",
			"%d. The kubelets pull, containerd fails, each pod goes from ErrImagePull to ImagePullBackOff":                               "%d. kubelet 拉取镜像，containerd 失败，每个 Pod 从 ErrImagePull 变成 ImagePullBackOff",
			"%d. Follow web: after each failed pull the kubelet waits twice as long before pulling again":                                "%d. 盯住 web：每次拉取失败后，kubelet 再次拉取前等待的时间翻倍",
			"%s kubectl describe pod %s: %s: %s":                                                                                                          "%s kubectl describe pod %s 显示：%s：%s",
			"%s kubectl describe pod %s: Warning Failed: Failed to pull image %q: ... %s":                                                                 "%s kubectl describe pod %s 显示拉取失败：Warning Failed：Failed to pull image %q: ... %s",
			"%s kubectl get pod %s: STATUS ImagePullBackOff, phase Pending":                                                                               "%s kubectl get pod %s：STATUS ImagePullBackOff，阶段 Pending",
			"%s kubectl get pod %s: STATUS ErrImagePull, phase Pending":                                                                                   "%s kubectl get pod %s：STATUS ErrImagePull，阶段 Pending",
			"%s legacy-app was scheduled to %s, the arm64 node":                                                                                           "%s legacy-app 被调度到 %s，那个 arm64 节点",
			"%s pull %d failed; %s later the kubelet pulls again (event Pulling x%d)":                                                                     "%s 第 %d 次拉取失败；%s 后 kubelet 再次拉取（事件 Pulling x%d）",
			"%s each gap is the back-off (10s, 20s, 40s, 1m20s, doubling) up to the pod worker's next retry: %s; it goes on to 2m40s, then stays at 5m0s": "%s 每个间隔都是退避时间（10s、20s、40s、1m20s，逐次翻倍），再等到 pod worker 的下一次重试：%s；一直到 2m40s，之后停在 5m0s",
			"%s web is still Pending with no container ever started: fix the image (kubectl set image) to end it":                                         "%s web 仍是 Pending，没有任何容器启动过：修正镜像（kubectl set image）才能结束",
		},
		Run: runImagePullBackoff,
	})
}

func runImagePullBackoff(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: web (ngnix:1.25, a typo), private-app (no imagePullSecrets), legacy-app (amd64 only, for an arm64 node)")
	if !applyFile(ctx, s, "bad-images.yaml") {
		return s.Err()
	}

	s.Step("The kubelets pull, containerd fails, each pod goes from ErrImagePull to ImagePullBackOff")
	pods := []struct{ name, image, why string }{
		{"web", "ngnix:1.25", "pull access denied, repository does not exist or may require authorization"},
		{"private-app", "registry.example.com/private/app:1.0", "no basic auth credentials"},
		{"legacy-app", "registry.example.com/legacy/app:1.0", "no match for platform in manifest: not found"},
	}
	// web's first failure starts the back-off followed below: note when it happens.
	var failedAt time.Time
	if !s.Until(ctx, time.Minute, sim.Check("the first pull of ngnix:1.25 fails", func() (bool, error) {
		failedAt = s.Now()
		return eventCountAbout(ctx, s, "web", "Failed", "Error: ErrImagePull") >= 1, nil
	})) {
		return s.Err()
	}
	// The next sync shows ErrImagePull and finds the back-off; ImagePullBackOff shows at the retry.
	for _, p := range pods {
		if !until(ctx, s, time.Minute, fmt.Sprintf("pod %s reason ErrImagePull", p.name)) {
			return s.Err()
		}
		pod, err := sim.Get[api.Pod](ctx, s.Cluster, "default", p.name)
		s.Expect(err == nil && pod.Status.Phase == api.PodPending && waitingReason(pod) == "ErrImagePull",
			"kubectl get pod %s: STATUS ErrImagePull, phase Pending", p.name)
	}
	for _, p := range pods {
		if !until(ctx, s, time.Minute, fmt.Sprintf("pod %s reason ImagePullBackOff", p.name)) {
			return s.Err()
		}
	}
	if legacy, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "legacy-app"); err == nil {
		s.Expect(legacy.Spec.NodeName == "node-3", "legacy-app was scheduled to %s, the arm64 node", legacy.Spec.NodeName)
	}
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	for _, p := range pods {
		failed := sim.FindEvent(about(events, p.name), "Failed", fmt.Sprintf("Failed to pull image %q: ", p.image))
		s.Expect(failed != nil && strings.Contains(failed.Message, p.why),
			"kubectl describe pod %s: Warning Failed: Failed to pull image %q: ... %s", p.name, p.image, p.why)
		for _, want := range []struct{ reason, message string }{
			{"Failed", "Error: ErrImagePull"},
			{"BackOff", fmt.Sprintf("Back-off pulling image %q", p.image)},
			{"Failed", "Error: ImagePullBackOff"},
		} {
			s.Expect(sim.FindEvent(about(events, p.name), want.reason, want.message) != nil, "kubectl describe pod %s: %s: %s", p.name, want.reason, want.message)
		}
		pod, err := sim.Get[api.Pod](ctx, s.Cluster, "default", p.name)
		s.Expect(err == nil && pod.Status.Phase == api.PodPending && waitingReason(pod) == "ImagePullBackOff",
			"kubectl get pod %s: STATUS ImagePullBackOff, phase Pending", p.name)
	}

	s.Step("Follow web: after each failed pull the kubelet waits twice as long before pulling again")
	// Each attempt counts up two events: "Pulling image" when it starts, "Error: ErrImagePull" when it
	// fails. The back-off is the gap from one failure to the next attempt.
	var gaps []string
	inBackOff := true // each gap at least the back-off, at most one retry period (16 s) more
	for attempt := int32(1); attempt <= 4; attempt++ {
		var nextAt time.Time
		if !s.Until(ctx, 6*time.Minute, sim.Check(fmt.Sprintf("pull %d of ngnix:1.25 starts", attempt+1), func() (bool, error) {
			nextAt = s.Now()
			return eventCountAbout(ctx, s, "web", "Pulling", `Pulling image "ngnix:1.25"`) > attempt, nil
		})) {
			return s.Err()
		}
		gap := nextAt.Sub(failedAt)
		gaps = append(gaps, gap.String())
		backOff := 10 * time.Second << (attempt - 1)
		inBackOff = inBackOff && gap >= backOff && gap <= backOff+16*time.Second
		s.Expect(true, "pull %d failed; %s later the kubelet pulls again (event Pulling x%d)", attempt, gap, attempt+1)
		if !s.Until(ctx, time.Minute, sim.Check(fmt.Sprintf("pull %d of ngnix:1.25 fails", attempt+1), func() (bool, error) {
			failedAt = s.Now()
			return eventCountAbout(ctx, s, "web", "Failed", "Error: ErrImagePull") > attempt, nil
		})) {
			return s.Err()
		}
	}
	s.Expect(inBackOff,
		"each gap is the back-off (10s, 20s, 40s, 1m20s, doubling) up to the pod worker's next retry: %s; it goes on to 2m40s, then stays at 5m0s", strings.Join(gaps, ", "))
	pod, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "web")
	s.Expect(err == nil && pod.Status.Phase == api.PodPending && restarts(pod) == 0,
		"web is still Pending with no container ever started: fix the image (kubectl set image) to end it")
	return s.Err()
}

// eventCountAbout is how many times the event has been recorded (its count), 0 if never.
func eventCountAbout(ctx context.Context, s *sim.Session, object, reason, message string) int32 {
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return 0
	}
	return eventCount(sim.FindEvent(about(events, object), reason, message))
}

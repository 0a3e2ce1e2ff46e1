// config_missing.go: config-missing, a pod whose environment comes from a ConfigMap and a Secret that
// do not exist yet. The apiserver accepts it (a reference is not checked at admission); the scheduler
// places it; the kubelet pulls the image and, about to create the container, cannot build its
// environment: CreateContainerConfigError with the kubelet's own message, first for the ConfigMap,
// then, once that exists, for the Secret; once both exist the next sync starts the container.
package scenarios

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "config-missing",
		StepOnly: true,
		Summary:  "a pod's env names a ConfigMap and a Secret that do not exist: CreateContainerConfigError (configmap \"app-config\" not found), Running once both are created",
		Teaches: `A pod may name a ConfigMap or a Secret that does not exist: nothing checks the reference when the
pod is created, and the scheduler does not look at it either. The kubelet finds out last, when it
is about to create the container and builds its environment (envFrom first, every key of a
ConfigMap or Secret; then env, one key each with configMapKeyRef or secretKeyRef). It cannot, so it creates nothing: the
container waits with reason CreateContainerConfigError and the kubelet's message ("configmap
"app-config" not found"), which kubectl get pods shows as the STATUS, and the kubelet records the
event "Error: ..." each time it tries. It tries again at every sync of the pod (every 10 s, the pod
worker's back-off after an error). The kubelet reads each object the pod names, and only those: the
Node authorizer lets a node read a ConfigMap or Secret only if a pod bound to it refers to it.
Creating the ConfigMap moves the error on to the Secret; creating the Secret (written with
stringData, which the apiserver folds into base64 data) lets the next sync start the container. A
reference marked optional: true would have been skipped instead.

Signs to look for: STATUS CreateContainerConfigError; the events "Error: configmap "app-config" not
found", then "Error: secret "app-secret" not found"; the Secret stored with data and no stringData;
the pod Running at the first sync after the Secret exists.`,
		SummaryZH: "Pod 的环境变量引用了不存在的 ConfigMap 和 Secret：CreateContainerConfigError（configmap \"app-config\" not found），两者都创建后变为 Running",
		TeachesZH: `Pod 可以引用一个还不存在的 ConfigMap 或 Secret：创建 Pod 时没有谁检查这个引用，调度器也不看它。
kubelet 是最后发现的：它准备创建容器、组装环境变量（env 里的 configMapKeyRef 和 secretKeyRef，
envFrom 里的 configMapRef 和 secretRef）时才发现拿不到，于是什么都不创建：容器以原因
CreateContainerConfigError 等待，消息是 kubelet 自己的话（"configmap "app-config" not found"），
kubectl get pods 把它显示为 STATUS；kubelet 每试一次就记一条事件 "Error: ..."。它在每次同步这个 Pod
时重试（每 10 秒，Pod worker 出错后的退避）。kubelet 只读 Pod 引用的那些对象：Node 鉴权器只允许节点
读取绑定在它上面的 Pod 所引用的 ConfigMap 或 Secret。创建 ConfigMap 之后，错误变成了 Secret 的；创建
Secret（用 stringData 写，apiserver 把它并入 base64 的 data）之后，下一次同步就启动了容器。如果引用标了
optional: true，缺失时会被跳过。

要看的信号：STATUS CreateContainerConfigError；事件 "Error: configmap "app-config" not found"，然后是
"Error: secret "app-secret" not found"；保存下来的 Secret 只有 data，没有 stringData；Secret 出现后的
第一次同步时 Pod 变为 Running。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f app.yaml: env from ConfigMap app-config and Secret app-secret, both missing":      "%d. kubectl apply -f app.yaml：环境变量来自 ConfigMap app-config 和 Secret app-secret，都不存在",
			"%d. kubectl apply -f app-config.yaml: the ConfigMap exists now":                                        "%d. kubectl apply -f app-config.yaml：ConfigMap 现在有了",
			"%d. kubectl apply -f app-secret.yaml: the Secret, written with stringData":                             "%d. kubectl apply -f app-secret.yaml：Secret，用 stringData 写",
			"%s the apiserver accepted the pod and the scheduler bound it to %s":                                    "%s apiserver 接受了这个 Pod，调度器把它绑定到 %s",
			"%s kubectl get pod app: STATUS %s: %s":                                                                 "%s kubectl get pod app：STATUS（状态）%s：%s",
			"%s event Warning Failed: %s":                                                                           "%s 事件 Warning Failed：%s",
			"%s no container was created: the runtime has none for pod app":                                         "%s 没有创建任何容器：运行时里没有 Pod app 的容器",
			"%s stored Secret app-secret: type %s, data keys %s, stringData %s":                                     "%s 保存下来的 Secret app-secret：类型 %s，data 的键 %s，stringData %s",
			"%s kubectl get pod app: Running, %s after the Secret was created (the kubelet's next sync of the pod)": "%s kubectl get pod app：Running（运行中），Secret 创建后 %s（kubelet 对这个 Pod 的下一次同步）",
			"%d. A minute later it still waits: the kubelet tries again at every sync of the pod":                   "%d. 一分钟后它还在等：kubelet 每次同步这个 Pod 都再试一次",
			"%s kubectl describe pod app: Warning Failed (x%d): Error: %s; still no container":                      "%s kubectl describe pod app：Warning Failed（x%d）：Error: %s；仍然没有容器",
		},
		Run: runConfigMissing,
	})
}

func runConfigMissing(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f app.yaml: env from ConfigMap app-config and Secret app-secret, both missing")
	if !applyFile(ctx, s, "config-app.yaml") || !until(ctx, s, 0, "pod app reason CreateContainerConfigError") {
		return s.Err()
	}
	app := objectNow[api.Pod](ctx, s, "default", "app")
	s.Expect(app.Spec.NodeName != "", "the apiserver accepted the pod and the scheduler bound it to %s", app.Spec.NodeName)
	const cmMissing = `configmap "app-config" not found`
	s.Expect(waitingReason(app) == "CreateContainerConfigError" && waitingMessage(app) == cmMissing,
		"kubectl get pod app: STATUS %s: %s", waitingReason(app), waitingMessage(app))
	s.Expect(failedCount(ctx, s, "Error: "+cmMissing) > 0, "event Warning Failed: %s", "Error: "+cmMissing)
	s.Expect(containersOf(ctx, s, app) == 0, "no container was created: the runtime has none for pod app")

	s.Step("A minute later it still waits: the kubelet tries again at every sync of the pod")
	if err := s.Driver.Advance(ctx, time.Minute); err != nil {
		return err
	}
	app = objectNow[api.Pod](ctx, s, "default", "app")
	tries := failedCount(ctx, s, "Error: "+cmMissing)
	// Retries every 10 to 15s (backOffPeriod and its jitter): at least 4 in the minute, after the first.
	s.Expect(waitingReason(app) == "CreateContainerConfigError" && tries >= 5,
		"kubectl describe pod app: Warning Failed (x%d): Error: %s; still no container", tries, cmMissing)

	s.Step("kubectl apply -f app-config.yaml: the ConfigMap exists now")
	if !applyFile(ctx, s, "app-config.yaml") {
		return s.Err()
	}
	const secretMissing = `secret "app-secret" not found`
	if !settled(ctx, s, func() bool { return waitingMessage(objectNow[api.Pod](ctx, s, "default", "app")) == secretMissing }) {
		s.Expect(false, "kubectl get pod app: STATUS %s: %s", "CreateContainerConfigError", secretMissing)
		return s.Err()
	}
	app = objectNow[api.Pod](ctx, s, "default", "app")
	s.Expect(waitingReason(app) == "CreateContainerConfigError", "kubectl get pod app: STATUS %s: %s", waitingReason(app), waitingMessage(app))
	s.Expect(failedCount(ctx, s, "Error: "+secretMissing) > 0, "event Warning Failed: %s", "Error: "+secretMissing)

	s.Step("kubectl apply -f app-secret.yaml: the Secret, written with stringData")
	if !applyFile(ctx, s, "app-secret.yaml") {
		return s.Err()
	}
	createdAt := s.Now()
	if secret := objectNow[api.Secret](ctx, s, "default", "app-secret"); secret != nil {
		keys := slices.Sorted(maps.Keys(secret.Data))
		stringData := "none"
		if secret.StringData != nil {
			stringData = "kept"
		}
		s.Expect(secret.StringData == nil && secret.Type == api.SecretTypeOpaque,
			"stored Secret app-secret: type %s, data keys %s, stringData %s", secret.Type, strings.Join(keys, ", "), stringData)
	}
	if until(ctx, s, 0, "pod app running") {
		s.Expect(true, "kubectl get pod app: Running, %s after the Secret was created (the kubelet's next sync of the pod)", s.Now().Sub(createdAt))
	}
	return s.Err()
}

// failedCount is how many times the kubelet recorded a Failed event about pod app with this message
// (the event's count, as kubectl describe shows "(xN)").
func failedCount(ctx context.Context, s *sim.Session, message string) int32 {
	for _, e := range schedEvents(ctx, s, "Failed", "app") {
		if e.Message == message {
			return eventCount(e)
		}
	}
	return 0
}

// containersOf counts the containers the runtime of the pod's node has for it (crictl ps -a), -1 if
// the node cannot be asked.
func containersOf(ctx context.Context, s *sim.Session, p *api.Pod) int {
	n, ok := s.Cluster.Node(p.Spec.NodeName)
	if !ok {
		return -1
	}
	list, err := n.Runtime.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: p.UID}})
	if err != nil {
		return -1
	}
	return len(list)
}

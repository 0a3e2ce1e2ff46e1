// pvc_pending.go: pvc-pending, a pod that mounts a PersistentVolumeClaim that nothing can satisfy:
// no PersistentVolume fits it and no StorageClass could provision one. The claim stays Pending with
// the PV controller's FailedBinding, the pod stays Pending because the scheduler's VolumeBinding
// plugin will not place a pod whose Immediate claim is unbound; an administrator adds a volume, the
// claim binds, and the pod is scheduled and runs. Then a ReadWriteOncePod claim and two pods that
// mount it: the second waits (VolumeRestrictions).
package scenarios

import (
	"context"
	"regexp"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "pvc-pending",
		StepOnly: true,
		Summary:  "a pod's PersistentVolumeClaim has no volume and no StorageClass: both Pending (\"pod has unbound immediate PersistentVolumeClaims\"), until a PersistentVolume appears",
		Teaches: `A pod that mounts a PersistentVolumeClaim cannot be placed until the claim is bound to a
PersistentVolume. Binding is the PV controller's job (in kube-controller-manager): it looks for an
Available volume of the claim's class with every access mode and at least the storage the claim asks
for, or, if the claim names a StorageClass, asks that class's provisioner to make one. Here the claim
names no class and the cluster has no default StorageClass, and no volume exists: the controller says
so on the claim (FailedBinding "no persistent volumes available for this claim and no storage class is
set") and leaves it Pending. The scheduler's VolumeBinding plugin rejects the pod at PreFilter, before
looking at any node, so every node fails for the same reason and preemption cannot help. The
controller says it again at each of its resyncs, every 15 seconds (FailedBinding x2, x3, ...). Creating
a PersistentVolume that fits does not wake the claim: the PV controller looks at waiting claims again
only at its next resync, up to 15 seconds later (the scheduler does retry the pod at once, in vain).
Then it binds claim and volume to each other (the volume's claimRef, the claim's volumeName, both
Bound), the claim's update moves the pod back to the activeQ, and the pod is scheduled and starts. (With a default StorageClass, the claim would have
been given it and a volume provisioned; with volumeBindingMode WaitForFirstConsumer, the volume would
wait for the scheduler to pick the pod's node.)

Signs to look for: FailedScheduling "0/3 nodes are available: pod has unbound immediate
PersistentVolumeClaims. not found" (the bare "not found" is Kubernetes 1.34's own: the
DynamicResources plugin's PostFilter, which runs before preemption, finds no state from its
PreFilter, which never ran); kubectl describe pvc data: Status Pending, the FailedBinding event from
persistentvolume-controller; after the volume: the claim Bound to data-pv with its capacity, the
volume Bound to default/data, and the pod Running.

Then a claim whose access mode is ReadWriteOncePod, mounted by two pods: only one pod of the whole
cluster may use it. The first is scheduled; the scheduler's VolumeRestrictions plugin rejects the
second on every node ("3 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access
mode already in-use by another pod"), and preemption finds no pod of lower priority to evict; it
waits until the first pod goes.`,
		SummaryZH: "Pod 的 PersistentVolumeClaim 既没有卷也没有 StorageClass：两者都 Pending（\"pod has unbound immediate PersistentVolumeClaims\"），直到出现一个 PersistentVolume",
		TeachesZH: `挂载 PersistentVolumeClaim 的 Pod，要等这个 claim 绑定到一个 PersistentVolume 之后才能被放置。绑
定是 PV 控制器（在 kube-controller-manager 里）的工作：它寻找一个与 claim 同一 class、具备所有访问模式、
容量不小于 claim 请求的 Available 卷；如果 claim 指定了 StorageClass，就请该 class 的 provisioner 创建
一个。这里 claim 没有指定 class，集群也没有默认 StorageClass，也没有任何卷：控制器在 claim 上说明这一点
（FailedBinding "no persistent volumes available for this claim and no storage class is set"），并让
它保持 Pending。调度器的 VolumeBinding 插件在 PreFilter 就拒绝了这个 Pod，还没看任何节点，所以每个节点
都因同一个原因失败，抢占也帮不上忙。控制器每次重新同步（每 15 秒一次）都会再说一遍（FailedBinding x2、
x3……）。创建一个合适的 PersistentVolume 并不会唤醒这个 claim：PV 控制器要等下一次重新同步才会再看等待中的
claim，最多晚 15 秒（调度器倒是立刻重试了这个 Pod，但没用）。然后它把 claim
和卷互相绑定（卷的 claimRef、claim 的 volumeName，两者都是 Bound），claim 的更新把 Pod 移回 activeQ，
Pod 随即被调度并启动。（如果有默认 StorageClass，claim 会被赋予它并动态创建卷；如果 volumeBindingMode
是 WaitForFirstConsumer，卷会等调度器为 Pod 选好节点。）

要看的信号：FailedScheduling "0/3 nodes are available: pod has unbound immediate
PersistentVolumeClaims. not found"（结尾光秃秃的 "not found" 是 Kubernetes 1.34 自己的：在抢占之前运行的
DynamicResources 插件的 PostFilter 找不到它的 PreFilter 留下的状态，因为那个 PreFilter 根本没有运行）；kubectl describe pvc data：Status Pending，以及来自 persistentvolume-controller 的
FailedBinding 事件；加了卷之后：claim 绑定到 data-pv 并带上容量，卷绑定到 default/data，Pod 变为 Running。

接着是一个访问模式为 ReadWriteOncePod 的 claim，被两个 Pod 挂载：整个集群同一时间只有一个 Pod 可以使用它。
第一个 Pod 被调度；调度器的 VolumeRestrictions 插件在每个节点上拒绝第二个（"3 node(s) unavailable due to
PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"），抢占也找不到
优先级更低的 Pod 可以驱逐；它要等第一个 Pod 离开。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f pvc-pending.yaml: a 1Gi claim named data, and a redis pod that mounts it":                 "%d. kubectl apply -f pvc-pending.yaml：一个名为 data 的 1Gi claim，以及挂载它的 redis Pod",
			"%d. A minute later nothing has changed: no volume, no class, so no binding":                                    "%d. 一分钟后什么都没变：没有卷，没有 class，所以无法绑定",
			"%d. kubectl apply -f data-pv.yaml: an administrator adds a 5Gi volume on a host directory":                     "%d. kubectl apply -f data-pv.yaml：管理员添加一个位于主机目录上的 5Gi 卷",
			"%s kubectl get pod redis: Pending, condition PodScheduled=False (Unschedulable): %s":                           "%s kubectl get pod redis：Pending，状况 PodScheduled=False（Unschedulable）：%s",
			"%s kubectl describe pvc data: Status Pending, event Normal FailedBinding from persistentvolume-controller: %s": "%s kubectl describe pvc data：Status Pending，来自 persistentvolume-controller 的事件 Normal FailedBinding：%s",
			"%s the claim and the pod are still Pending, the pod bound to no node":                                          "%s claim 和 Pod 仍是 Pending，Pod 没有绑定到任何节点",
			"%s kubectl get pvc data: Bound, VOLUME data-pv, CAPACITY %s, ACCESS MODES %s":                                  "%s kubectl get pvc data：已绑定（Bound），VOLUME data-pv，CAPACITY %s，ACCESS MODES %s",
			"%s kubectl get pv data-pv: Bound, CLAIM default/data":                                                          "%s kubectl get pv data-pv：已绑定（Bound），CLAIM default/data",
			"%s the claim bound at the PV controller's next resync, %s after the volume (every 15s)":                        "%s claim 在 PV 控制器下一次重新同步时绑定，距卷出现 %s（每 15s 一次）",
			"%s event Normal Scheduled: Successfully assigned default/redis to %s":                                          "%s 事件 Normal Scheduled：Successfully assigned default/redis to %s",
			"%s kubectl get pod redis: Running":                                                                             "%s kubectl get pod redis：Running（运行中）",
			"%d. kubectl apply -f journal-rwop.yaml: a 1Gi volume and a claim journal, both ReadWriteOncePod":               "%d. kubectl apply -f journal-rwop.yaml：一个 1Gi 的卷和一个名为 journal 的 claim，访问模式都是 ReadWriteOncePod",
			"%s kubectl get pvc journal: Bound, VOLUME journal-pv, ACCESS MODES RWOP":                                       "%s kubectl get pvc journal：已绑定（Bound），VOLUME journal-pv，ACCESS MODES RWOP",
			"%d. kubectl apply -f journal-writers.yaml: two pods that mount the claim journal":                              "%d. kubectl apply -f journal-writers.yaml：两个挂载 claim journal 的 Pod",
			"%s writer-1 has the claim; writer-2 stays Pending, bound to no node":                                           "%s writer-1 占用了这个 claim；writer-2 保持 Pending，没有绑定到任何节点",
		},
		Run: runPVCPending,
	})
}

// unboundImmediate is the scheduler's whole message for a pod whose claim must be bound first.
const unboundImmediate = "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found"

func runPVCPending(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f pvc-pending.yaml: a 1Gi claim named data, and a redis pod that mounts it")
	if !applyFile(ctx, s, "pvc-pending.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "event FailedScheduling for pod/redis", "event FailedBinding") {
		return s.Err()
	}
	s.Expect(schedFailedScheduling(ctx, s, "redis", unboundImmediate), "event Warning FailedScheduling: %s", unboundImmediate)
	redis := objectNow[api.Pod](ctx, s, "default", "redis")
	s.Expect(schedUnschedulable(redis, unboundImmediate), "kubectl get pod redis: Pending, condition PodScheduled=False (Unschedulable): %s", unboundImmediate)
	const noClass = "no persistent volumes available for this claim and no storage class is set"
	described, err := s.Kubectl.Describe(ctx, "pvc", "default", "data")
	if err != nil {
		return err
	}
	pending := regexp.MustCompile(`(?m)^Status: +Pending$`).MatchString(described)
	event := regexp.MustCompile(`(?m)^  Normal +FailedBinding .* persistentvolume-controller +` + regexp.QuoteMeta(noClass) + `$`).MatchString(described)
	s.Expect(pending && event, "kubectl describe pvc data: Status Pending, event Normal FailedBinding from persistentvolume-controller: %s", noClass)

	s.Step("A minute later nothing has changed: no volume, no class, so no binding")
	if err := s.Driver.Advance(ctx, time.Minute); err != nil {
		return err
	}
	redis = objectNow[api.Pod](ctx, s, "default", "redis")
	claim := objectNow[api.PersistentVolumeClaim](ctx, s, "default", "data")
	s.Expect(redis != nil && redis.Spec.NodeName == "" && claim != nil && claim.Status.Phase == api.ClaimPending,
		"the claim and the pod are still Pending, the pod bound to no node")

	s.Step("kubectl apply -f data-pv.yaml: an administrator adds a 5Gi volume on a host directory")
	if !applyFile(ctx, s, "data-pv.yaml") {
		return s.Err()
	}
	volumeAt := s.Now()
	if !until(ctx, s, 0, "pod redis bound") {
		return s.Err()
	}
	waited := s.Now().Sub(volumeAt)
	claim = objectNow[api.PersistentVolumeClaim](ctx, s, "default", "data")
	capacity, modes := "", ""
	if claim != nil {
		q := claim.Status.Capacity["storage"]
		capacity, modes = q.String(), api.AccessModesString(claim.Status.AccessModes)
	}
	s.Expect(claim != nil && claim.Status.Phase == api.ClaimBound && claim.Spec.VolumeName == "data-pv",
		"kubectl get pvc data: Bound, VOLUME data-pv, CAPACITY %s, ACCESS MODES %s", capacity, modes)
	s.Expect(waited > 0 && waited <= 15*time.Second+lateness(s),
		"the claim bound at the PV controller's next resync, %s after the volume (every 15s)", waited)
	pv := objectNow[api.PersistentVolume](ctx, s, "", "data-pv")
	s.Expect(pv != nil && pv.Status.Phase == api.VolumeBound && pv.Spec.ClaimRef != nil &&
		pv.Spec.ClaimRef.Namespace+"/"+pv.Spec.ClaimRef.Name == "default/data", "kubectl get pv data-pv: Bound, CLAIM default/data")
	redis = objectNow[api.Pod](ctx, s, "default", "redis")
	scheduled := schedEvents(ctx, s, "Scheduled", "redis")
	s.Expect(len(scheduled) == 1 && strings.HasSuffix(scheduled[0].Message, " to "+redis.Spec.NodeName),
		"event Normal Scheduled: Successfully assigned default/redis to %s", redis.Spec.NodeName)
	if until(ctx, s, 0, "pod redis running") {
		s.Expect(true, "kubectl get pod redis: Running")
	}

	s.Step("kubectl apply -f journal-rwop.yaml: a 1Gi volume and a claim journal, both ReadWriteOncePod")
	if !applyFile(ctx, s, "journal-rwop.yaml") {
		return s.Err()
	}
	journalBound := func() bool {
		c := objectNow[api.PersistentVolumeClaim](ctx, s, "default", "journal")
		return c != nil && c.Status.Phase == api.ClaimBound && c.Spec.VolumeName == "journal-pv" &&
			api.AccessModesString(c.Status.AccessModes) == "RWOP"
	}
	s.Expect(settled(ctx, s, journalBound), "kubectl get pvc journal: Bound, VOLUME journal-pv, ACCESS MODES RWOP")

	s.Step("kubectl apply -f journal-writers.yaml: two pods that mount the claim journal")
	if !applyFile(ctx, s, "journal-writers.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "pod writer-1 bound", "event FailedScheduling for pod/writer-2") {
		return s.Err()
	}
	s.Expect(schedFailedScheduling(ctx, s, "writer-2", rwopInUse), "event Warning FailedScheduling: %s", rwopInUse)
	writer2 := objectNow[api.Pod](ctx, s, "default", "writer-2")
	s.Expect(writer2 != nil && writer2.Spec.NodeName == "", "writer-1 has the claim; writer-2 stays Pending, bound to no node")
	return s.Err()
}

// rwopInUse is the scheduler's message for the second pod of a ReadWriteOncePod claim: every node
// fails for the same reason (VolumeRestrictions), and preemption finds no pod of lower priority.
const rwopInUse = "0/3 nodes are available: 3 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."

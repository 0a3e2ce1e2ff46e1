// split_brain.go: split-brain (article 2, section 4.3): the leading kube-controller-manager is
// cut off from the apiserver while its leader elector is stuck, so for a while two replicas believe
// they lead and both act. The cluster still converges to the desired state, with no extra pods: every
// write is a compare-and-swap on a resourceVersion, reconciles are level-based, and the cut-off
// replica's writes cannot land.
package scenarios

import (
	"context"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:     "split-brain",
		StepOnly: true,
		Summary:  "the leader is partitioned while its elector is stuck: two replicas think they lead, both act, the cluster still converges",
		Teaches: `Leader election makes two leaders unlikely, not impossible. A leader that cannot renew steps down
after renewDeadline (10s), before any standby may take over (leaseDuration, 15s): with a plain partition
the terms do not overlap. But a leader whose elector is stuck (a renew request hanging, a long
garbage-collection pause, a frozen VM) never notices that its term ended, while the standby, seeing no
renewal for 15s, takes over. For that window both believe they lead, and both act.

Kubernetes stays safe anyway: every write is a compare-and-swap on the object's resourceVersion, so a
writer with a stale view gets 409 instead of overwriting; controllers are level-based, so the one that
catches up finds the work done and does nothing; and a cut-off replica's writes do not arrive at all.
Here kubectl scales nginx to 5 just as the leader is cut off: the old leader's deployment-controller
acts on it and fails ("connection refused"), again and again with backoff; the new leader does it. When
the network heals, the old leader's controllers catch up, find the ReplicaSet at 5 and do nothing;
when its elector wakes up it finds the Lease taken and stops leading.

Signs to look for: both IsLeader at once, with holderIdentity control-plane-2_<uuid> (kube-controller-manager-2's); the old
leader's "watch failed, will retry" and its deployment-controller's "requeued with backoff" lines ending
in "(network partition)"; exactly one "Scaled up replica set ... from 3 to 5" and two new pods; after
the heal, "failed to renew lease ... stops leading"; 5 pods, not 7.`,
		SummaryZH: "leader 的选举器卡住时它被网络隔离：两个副本都以为自己是 leader，都在干活，集群仍然收敛",
		TeachesZH: `leader 选举让出现两个 leader 变得不太可能，而不是不可能。无法续约的 leader 在 renewDeadline（10s）后
退位，早于任何备用副本可以接管的时间（leaseDuration，15s）：单纯的网络分区下，两个任期不会重叠。但一
个选举器卡住的 leader（续约请求挂住、长时间的垃圾回收停顿、虚拟机冻结）根本察觉不到自己的任期已经结
束，而备用副本 15s 没看到续约，就接管了。在这段窗口里两者都相信自己是 leader，都在干活。

Kubernetes 依然安全：每次写入都是基于对象 resourceVersion 的 compare-and-swap，视图过时的写者得到
409，而不会覆盖别人；控制器基于水平，追上来的那个发现活已经干完，什么也不做；被隔离的副本的写根本到
不了。这里 kubectl 恰好在 leader 被隔离时把 nginx 扩到 5：旧 leader 的 deployment-controller 据此行
动并失败（"connection refused"），带着退避一再失败；新 leader 把它做完。网络恢复后，旧 leader 的控制
器追上来，发现 ReplicaSet 已经是 5，什么也不做；它的选举器醒来后发现 Lease 已被别人拿走，于是不再担
任 leader。

要看的信号：两者同时 IsLeader，holderIdentity 为 control-plane-2_<uuid>（kube-controller-manager-2 的）；旧 leader 的 "watch
failed, will retry" 和它的 deployment-controller 的 "requeued with backoff" 日志行，以 "(network
partition)" 结尾；恰好一条 "Scaled up replica set ... from 3 to 5" 和两个新 Pod；恢复后 "failed to
renew lease ... stops leading"；5 个 Pod，而不是 7 个。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply -f nginx-deployment.yaml; a second replica, kube-controller-manager-2, stands by":                           "%d. kubectl apply -f nginx-deployment.yaml；第二个副本 kube-controller-manager-2 待命",
			"%d. kubectl scale deployment/nginx --replicas=5; the news reaches the leader just as its network fails and its elector hangs": "%d. kubectl scale deployment/nginx --replicas=5；消息刚传到 leader，它的网络就断了，选主协程也卡住了",
			"%d. The old leader keeps acting on what it saw, and its writes fail; after 15s kube-controller-manager-2 takes the Lease":     "%d. 旧 leader 按它看到的继续行动，写入全部失败；15 秒后 kube-controller-manager-2 拿到 Lease",
			"%d. Both act: the new leader scales the ReplicaSet, the old one keeps failing":                                                "%d. 两个都在行动：新 leader 扩容 ReplicaSet，旧 leader 继续失败",
			"%d. The network heals: the old leader's informers catch up and its controllers find nothing to do":                            "%d. 网络恢复：旧 leader 的 informer 追上进度，它的控制器发现无事可做",
			"%d. Its elector wakes up, finds the Lease taken, and steps down":                                                              "%d. 它的选主协程醒来，发现 Lease 已被别人拿走，于是退位",
			"%d. The cluster has converged: the desired 5 pods, no extra":                                                                  "%d. 集群收敛了：正好是期望的 5 个 Pod，一个不多",
			"%s both think they lead: kube-controller-manager IsLeader %t, kube-controller-manager-2 IsLeader %t":                          "%s 两个都以为自己是 leader：kube-controller-manager IsLeader %t，kube-controller-manager-2 IsLeader %t",
			"%s exactly one event: Scaled up replica set nginx-... from 3 to 5":                                                            "%s 恰好一个事件：Scaled up replica set nginx-... from 3 to 5",
			"%s kube-controller-manager leads; kube-controller-manager-2 waits":                                                            "%s kube-controller-manager 是 leader；kube-controller-manager-2 等待",
			"%s kubectl get pods -l app=nginx: 5 pods (3 + exactly 2 created), not 7":                                                      "%s kubectl get pods -l app=nginx：5 个 Pod（3 个 + 恰好新建 2 个），不是 7 个",
			"%s one ReplicaSet, replicas 5":                                                                                                         "%s 一个 ReplicaSet，副本数 5",
			"%s one leader again: kube-controller-manager-2 holds the Lease":                                                                        "%s 又只有一个 leader 了：kube-controller-manager-2 持有 Lease",
			"%s the Lease says holderIdentity %s (kube-controller-manager-2), leaseTransitions 1":                                                   "%s Lease 上写着 holderIdentity 为 %s（kube-controller-manager-2），leaseTransitions 1",
			"%s the old leader still believes it leads":                                                                                             "%s 旧 leader 仍以为自己是 leader",
			"%s the old leader's deployment-controller tried the scale %d times; each write failed: connection refused (network partition)":         "%s 旧 leader 的 deployment 控制器尝试扩容 %d 次；每次写入都失败：connection refused（网络分区）",
			"%s while both still lead, the caught-up ReplicaSet controllers reconcile the nginx ReplicaSet %d times: wants 5, has 5: nothing to do": "%s 两个都还是 leader 时，追上进度的 ReplicaSet 控制器调谐 nginx ReplicaSet %d 次：期望 5 个，现有 5 个：无需操作",
		},
		Run: runSplitBrain,
	})
}

func runSplitBrain(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml; a second replica, kube-controller-manager-2, stands by")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	standby, err := s.StartControllerManager(ctx, "kube-controller-manager-2")
	if err != nil {
		return err
	}
	leader := electorOf(s, "kube-controller-manager")
	if err := s.Driver.Advance(ctx, 4*time.Second); err != nil {
		return err
	}
	s.Expect(leader != nil && leader.IsLeader() && !standby.Elector.IsLeader(), "kube-controller-manager leads; kube-controller-manager-2 waits")
	pods, _ := livePods(ctx, s, "app=nginx")
	created := sim.CountEvents(objectsNow[api.Event](ctx, s, "default", ""), "SuccessfulCreate", "Created pod: nginx-")

	s.Step("kubectl scale deployment/nginx --replicas=5; the news reaches the leader just as its network fails and its elector hangs")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "nginx", 5); err != nil {
		s.Expect(false, "kubectl scale --replicas=5: %v", err)
		return s.Err()
	}
	// Let the watch cache hand the change to every watcher before the cut: the leader's informer has
	// it buffered, as a real one would have it in flight.
	rev, err := s.Store.CurrentRevision(ctx)
	if err != nil {
		return err
	}
	if err := s.APIServer.WaitForRevision(ctx, rev); err != nil {
		return err
	}
	s.Partition("kube-controller-manager")
	if err := s.Stop("kube-controller-manager"); err != nil {
		return err
	}
	failures := s.Tap(func(e trace.Event) bool {
		return e.Component == "deployment-controller" && e.Action == "retry" && strings.Contains(e.Message, "(network partition)")
	})

	s.Step("The old leader keeps acting on what it saw, and its writes fail; after 15s kube-controller-manager-2 takes the Lease")
	if !s.Until(ctx, 0, sim.Check("kube-controller-manager-2 leads", func() (bool, error) { return standby.Elector.IsLeader(), nil })) {
		return s.Err()
	}
	lease := objectNow[api.Lease](ctx, s, "kube-system", "kube-controller-manager")
	s.Expect(leader.IsLeader() && standby.Elector.IsLeader(),
		"both think they lead: kube-controller-manager IsLeader %t, kube-controller-manager-2 IsLeader %t", leader.IsLeader(), standby.Elector.IsLeader())
	s.Expect(holderOf(lease) == standby.Identity && transitionsOf(lease) == 1,
		"the Lease says holderIdentity %s (kube-controller-manager-2), leaseTransitions 1", standby.Identity)

	s.Step("Both act: the new leader scales the ReplicaSet, the old one keeps failing")
	if !until(ctx, s, 0, "pods -l app=nginx count 5", "pods -l app=nginx ready", "deployment nginx available") {
		return s.Err()
	}
	attempts := len(failures.Lines())
	s.Expect(attempts > 0, "the old leader's deployment-controller tried the scale %d times; each write failed: connection refused (network partition)", attempts)
	s.Expect(leader.IsLeader(), "the old leader still believes it leads")

	s.Step("The network heals: the old leader's informers catch up and its controllers find nothing to do")
	reconciles := s.Tap(func(e trace.Event) bool {
		return e.Component == "replicaset-controller" && e.Action == "reconcile"
	})
	s.Heal("kube-controller-manager")
	if err := s.Driver.Advance(ctx, 2*time.Second); err != nil {
		return err
	}
	var idle, acted int
	for _, e := range reconciles.Lines() {
		switch {
		case strings.Contains(e.Message, "wants 5, has 5: nothing to do"):
			idle++
		case strings.Contains(e.Message, "-> create") || strings.Contains(e.Message, "-> delete"):
			acted++
		}
	}
	s.Expect(leader.IsLeader() && idle > 0 && acted == 0,
		"while both still lead, the caught-up ReplicaSet controllers reconcile the nginx ReplicaSet %d times: wants 5, has 5: nothing to do", idle)

	s.Step("Its elector wakes up, finds the Lease taken, and steps down")
	if err := s.Start("kube-controller-manager"); err != nil {
		return err
	}
	if !s.Until(ctx, 0, sim.Check("kube-controller-manager stops leading", func() (bool, error) { return !leader.IsLeader(), nil })) {
		return s.Err()
	}
	if err := s.Driver.Advance(ctx, 4*time.Second); err != nil {
		return err
	}
	lease = objectNow[api.Lease](ctx, s, "kube-system", "kube-controller-manager")
	s.Expect(!leader.IsLeader() && standby.Elector.IsLeader() && holderOf(lease) == standby.Identity,
		"one leader again: kube-controller-manager-2 holds the Lease")

	s.Step("The cluster has converged: the desired 5 pods, no extra")
	after, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	events := objectsNow[api.Event](ctx, s, "default", "")
	rss, _ := replicaSetsOf(ctx, s, "nginx-")
	s.Expect(len(rss) == 1 && *rss[0].Spec.Replicas == 5, "one ReplicaSet, replicas 5")
	s.Expect(sim.CountEvents(events, "ScalingReplicaSet", "from 3 to 5") == 1, "exactly one event: Scaled up replica set nginx-... from 3 to 5")
	s.Expect(len(pods) == 3 && len(after) == 5 && sim.CountEvents(events, "SuccessfulCreate", "Created pod: nginx-") == created+2,
		"kubectl get pods -l app=nginx: 5 pods (3 + exactly 2 created), not 7")
	return s.Err()
}

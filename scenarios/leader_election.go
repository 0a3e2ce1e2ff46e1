// leader_election.go: leader-election (article 2, section 4.3): two kube-controller-manager
// replicas, one Lease. Only the holder of kube-system/kube-controller-manager runs the controllers; the
// other reads the Lease every retryPeriod and waits. When the leader dies, its Lease stops being
// renewed, and once leaseDuration has passed without a change the standby takes it over and carries
// on, including the work that piled up while nobody led.
//
// The end of this file holds helpers the controller scenarios share (leaseNow, electorOf,
// stopControllerManager).
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/client/leaderelection"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "leader-election",
		StepOnly: true,
		Summary:  "two kube-controller-manager replicas; kill the leader: the standby takes the Lease once it expires and catches up",
		Teaches: `High-availability control planes run kube-controller-manager (and kube-scheduler) on every
control-plane node, but only one replica may act at a time, or two ReplicaSet controllers would race.
They elect a leader through a Lease object, kube-system/kube-controller-manager: the holder writes its
name in holderIdentity and renews renewTime every retryPeriod (2s); a candidate reads the Lease every
retryPeriod and may take it over only when it has seen no change for leaseDuration (15s); a leader that
cannot renew within renewDeadline (10s) gives up. So when the leader dies, the controllers stop for
about 15 seconds; then the standby writes itself into the Lease (leaseTransitions grows by one) and
starts its controllers. Nothing is lost: controllers are level-based, so the new leader's first
reconciles compare desired and actual state and do whatever is still to do, including a change made
while nobody led.

Each replica's identity in the Lease is, as in Kubernetes, its host's name and a UUID drawn at start
(control-plane_<uuid>, control-plane-2_<uuid>). Signs to look for: "successfully acquired lease
kube-system/kube-controller-manager as control-plane-2_<uuid> (previous holder "control-plane_<uuid>",
leaseTransitions 1)" at least 15s after the last renewal, and the event "LeaderElection:
control-plane-2_<uuid> became leader" on the Lease; the Deployment scaled to 5 while leaderless and its ReplicaSet still at 3 until
then; afterwards "Scaled up replica set ... from 3 to 5" and 5 pods.`,
		SummaryZH: "两个 kube-controller-manager 副本；杀掉 leader：Lease 过期后备用副本接管并补上落下的工作",
		TeachesZH: `高可用控制面在每个控制面节点上都运行 kube-controller-manager（和 kube-scheduler），但同一时刻只能有
一个副本干活，否则两个 ReplicaSet 控制器会互相打架。它们通过一个 Lease 对象
kube-system/kube-controller-manager 选出 leader：持有者把自己的名字写进 holderIdentity，每个
retryPeriod（2s）更新一次 renewTime；候选者每个 retryPeriod 读一次 Lease，只有在 leaseDuration
（15s）内都没看到变化时才能接管；在 renewDeadline （10s）内续约不成功的 leader 会主动放弃。所以
leader 死后，控制器停摆约 15 秒；然后备用副本把自己写进 Lease（leaseTransitions 加一）并启动它的控制
器。什么都不会丢：控制器是基于水平（level-based）的，新 leader 最初的几次调谐比较期望状态和实际状
态，把还没做的都做掉，包括无人领导期间做出的改动。

和 Kubernetes 一样，每个副本在 Lease 里的身份是它所在主机的名字加上启动时生成的 UUID
（control-plane_<uuid>、control-plane-2_<uuid>）。要看的信号：最后一次续约至少 15s 之后出现
"successfully acquired lease kube-system/kube-controller-manager as control-plane-2_<uuid>
(previous holder "control-plane_<uuid>", leaseTransitions 1)"，以及 Lease 上的事件 "LeaderElection:
control-plane-2_<uuid> became leader"；无 leader 期间 Deployment 被扩到 5，而它的
ReplicaSet 在那之前一直是 3；之后 "Scaled up replica set ... from 3 to 5"，5 个 Pod。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. A second replica, kube-controller-manager-2, starts: the Lease is held, so it waits":                         "%d. 第二个副本 kube-controller-manager-2 启动：Lease 被占着，它只能等",
			"%d. kube-controller-manager dies (its process is killed): nobody renews the Lease":                               "%d. kube-controller-manager 挂了（进程被杀）：没人续约 Lease",
			"%d. While nobody leads: kubectl scale deployment/nginx --replicas=5":                                             "%d. 群龙无首之时：kubectl scale deployment/nginx --replicas=5",
			"%d. The Lease expires (leaseDuration 15s): kube-controller-manager-2 takes it over":                              "%d. Lease 过期（leaseDuration 15s）：kube-controller-manager-2 接管",
			"%d. The new leader's controllers reconcile what is pending: the scale to 5 is carried out":                       "%d. 新 leader 的控制器处理积压的工作：扩容到 5 得以完成",
			"%s 8s later the Deployment wants 5 but its ReplicaSet still says 3: no controller is running":                    "%s 8 秒后 Deployment 期望 5 个，它的 ReplicaSet 却仍是 3：没有控制器在运行",
			"%s Lease kube-system/kube-controller-manager: holderIdentity %s (kube-controller-manager), leaseTransitions 0":   "%s Lease kube-system/kube-controller-manager：holderIdentity 为 %s（kube-controller-manager），leaseTransitions 0",
			"%s Lease kube-system/kube-controller-manager: holderIdentity %s (kube-controller-manager-2), leaseTransitions 1": "%s Lease kube-system/kube-controller-manager：holderIdentity 为 %s（kube-controller-manager-2），leaseTransitions 1",
			"%s event LeaderElection on the Lease: %s became leader":                                                          "%s Lease 上的事件 LeaderElection：%s became leader",
			"%s ReplicaSet %s: replicas 5": "%s ReplicaSet %s：副本数 5",
			"%s it was acquired %s after the last renewal: leaseDuration 15s, then at most a retryPeriod or two": "%s 在最后一次续约 %s 后被接手：leaseDuration 15s，再加至多一两个 retryPeriod",
			"%s kube-controller-manager-2 is a standby: it reads the Lease every 2s and does not lead":           "%s kube-controller-manager-2 是备用的：每 2 秒读一次 Lease，不当 leader",
			"%s event ScalingReplicaSet: Scaled up replica set nginx-... from 3 to 5":                            "%s 事件 ScalingReplicaSet：Scaled up replica set nginx-... from 3 to 5",
		},
		Run: runLeaderElection,
	})
}

func runLeaderElection(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}

	s.Step("A second replica, kube-controller-manager-2, starts: the Lease is held, so it waits")
	standby, err := s.StartControllerManager(ctx, "kube-controller-manager-2")
	if err != nil {
		return err
	}
	if err := s.Driver.Advance(ctx, 6*time.Second); err != nil {
		return err
	}
	lease := objectNow[api.Lease](ctx, s, "kube-system", "kube-controller-manager")
	first, _ := s.ControllerManager("kube-controller-manager")
	s.Expect(holderOf(lease) == first.Identity && transitionsOf(lease) == 0,
		"Lease kube-system/kube-controller-manager: holderIdentity %s (kube-controller-manager), leaseTransitions 0", first.Identity)
	s.Expect(!standby.Elector.IsLeader(), "kube-controller-manager-2 is a standby: it reads the Lease every 2s and does not lead")

	s.Step("kube-controller-manager dies (its process is killed): nobody renews the Lease")
	if err := s.KillControllerManager("kube-controller-manager"); err != nil {
		return err
	}
	lastRenew := renewTimeOf(lease)

	s.Step("While nobody leads: kubectl scale deployment/nginx --replicas=5")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "nginx", 5); err != nil {
		s.Expect(false, "kubectl scale --replicas=5: %v", err)
		return s.Err()
	}
	if err := s.Driver.Advance(ctx, 8*time.Second); err != nil {
		return err
	}
	rss, err := replicaSetsOf(ctx, s, "nginx-")
	if err != nil || len(rss) != 1 {
		s.Expect(false, "the nginx ReplicaSet exists")
		return s.Err()
	}
	s.Expect(*rss[0].Spec.Replicas == 3 && !standby.Elector.IsLeader(),
		"8s later the Deployment wants 5 but its ReplicaSet still says 3: no controller is running")

	s.Step("The Lease expires (leaseDuration 15s): kube-controller-manager-2 takes it over")
	if !s.Until(ctx, 0, sim.Check("kube-controller-manager-2 leads", func() (bool, error) { return standby.Elector.IsLeader(), nil })) {
		return s.Err()
	}
	lease = objectNow[api.Lease](ctx, s, "kube-system", "kube-controller-manager")
	gap := acquireTimeOf(lease).Sub(lastRenew)
	s.Expect(holderOf(lease) == standby.Identity && transitionsOf(lease) == 1,
		"Lease kube-system/kube-controller-manager: holderIdentity %s (kube-controller-manager-2), leaseTransitions 1", standby.Identity)
	s.Expect(sim.FindEvent(objectsNow[api.Event](ctx, s, "kube-system", ""), "LeaderElection", standby.Identity+" became leader") != nil,
		"event LeaderElection on the Lease: %s became leader", standby.Identity)
	s.Expect(gap >= leaderelection.DefaultLeaseDuration && gap <= leaderelection.DefaultLeaseDuration+2*leaderelection.DefaultRetryPeriod,
		"it was acquired %s after the last renewal: leaseDuration 15s, then at most a retryPeriod or two", gap)

	s.Step("The new leader's controllers reconcile what is pending: the scale to 5 is carried out")
	if !until(ctx, s, 0, "pods -l app=nginx count 5", "pods -l app=nginx ready", "deployment nginx available") {
		return s.Err()
	}
	rss, _ = replicaSetsOf(ctx, s, "nginx-")
	s.Expect(len(rss) == 1 && *rss[0].Spec.Replicas == 5, "ReplicaSet %s: replicas 5", replicaSetNames(rss))
	s.Expect(sim.FindEvent(objectsNow[api.Event](ctx, s, "default", ""), "ScalingReplicaSet", "from 3 to 5") != nil, "event ScalingReplicaSet: Scaled up replica set nginx-... from 3 to 5")
	return s.Err()
}

// Helpers shared by the controller scenarios.

func holderOf(l *api.Lease) string {
	if l == nil || l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

func transitionsOf(l *api.Lease) int32 {
	if l == nil || l.Spec.LeaseTransitions == nil {
		return -1
	}
	return *l.Spec.LeaseTransitions
}

func renewTimeOf(l *api.Lease) time.Time {
	if l == nil || l.Spec.RenewTime == nil {
		return time.Time{}
	}
	return l.Spec.RenewTime.Time
}

func acquireTimeOf(l *api.Lease) time.Time {
	if l == nil || l.Spec.AcquireTime == nil {
		return time.Time{}
	}
	return l.Spec.AcquireTime.Time
}

// electorOf is the leader elector of the kube-controller-manager replica called name.
func electorOf(s *sim.Session, name string) *leaderelection.LeaderElector {
	cm, ok := s.ControllerManager(name)
	if !ok {
		return nil
	}
	return cm.Elector
}

// etcd_leader_loss.go: etcd-leader-loss (article 2, section 2.1): the etcd member that leads
// dies in the middle of a rollout. The followers stop hearing its heartbeats, the first whose election
// timeout runs out campaigns, wins a quorum's votes for the next term, and writes go on: the control
// plane sees a pause of a few hundred milliseconds, and the rollout finishes as if nothing happened.
// Step mode with a real wait inside the fault (etcd's elections run on its own wall-clock timers): the
// story prints the members, the leader and its term, never a measured time.
package scenarios

import (
	"context"

	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func init() {
	cfg := sim.FullCluster(3)
	cfg.EtcdMembers = 3
	register(sim.Scenario{
		Name:     "etcd-leader-loss",
		StepOnly: true,
		Summary:  "the etcd leader dies mid-rollout: a new election, a short write stall, and the rollout finishes",
		Teaches: `In Raft every write goes through the leader. When the leader's machine dies, the followers notice the
missing heartbeats after an election timeout (etcd's default 1s; 300ms in kubesim's cluster),
one of them campaigns for the next term, and with a quorum's votes (2 of the 3 members) becomes the
leader. Meanwhile writes wait: a few hundred milliseconds in which the apiserver's requests to etcd
stall. Nothing is lost: every write the old leader acknowledged was already on a quorum's disks, so
the new leader has it. The controllers notice nothing but a short pause.

Signs to look for: the etcd lines "member etcd-0 stopped" and "election: etcd-1 became leader at
term 3 (etcd-0 led term 2)", and the rollout finishing with 3 pods of the new image.

Real etcd randomizes each member's election timeout, so any follower may win, and a split vote can
cost a term; kubesim lets only the lowest-numbered member that runs campaign, so the same member wins
the same term every run.`,
		SummaryZH: "etcd 的 leader 在滚动更新中途宕机：重新选举，写入短暂停顿，滚动更新照样完成",
		TeachesZH: `在 Raft 里每一次写入都经过 leader。leader 所在的机器宕机后，follower 们在一个选举超时（etcd 默认
1s；kubesim 的集群里是 300ms）之后发现心跳没了，其中一个为下一个任期发起竞选，拿到法定人数的选票
（3 个成员中的 2 个）就成为 leader。这期间写入要等待：apiserver 发往 etcd 的请求停顿几百毫秒。什么都
不会丢：旧 leader 确认过的每一次写入都已经落在法定人数成员的磁盘上，新 leader 手里都有。控制器只感到
一次短暂的停顿。

要看的信号：etcd 的 "member etcd-0 stopped" 和 "election: etcd-1 became leader at term 3 (etcd-0 led
term 2)"，以及滚动更新完成，3 个 Pod 都是新镜像。

真实的 etcd 给每个成员随机的选举超时，所以哪个 follower 都可能赢，平票还会多耗掉一个任期；kubesim 只让
正在运行的编号最小的成员参选，所以每次运行都是同一个成员在同一个任期当选。`,
		Cluster: cfg,
		ZH: catalog{
			"%d. A 3-member etcd, led by etcd-0: kubectl apply -f nginx-deployment.yaml":                         "%d. 3 个成员的 etcd，leader 是 etcd-0：kubectl apply -f nginx-deployment.yaml",
			"%d. kubectl set image deployment/nginx nginx=nginx:1.27, and the rollout runs for %d units of work": "%d. kubectl set image deployment/nginx nginx=nginx:1.27，滚动更新执行 %d 个工作单元",
			"%d. etcd-0, the leader, dies mid-rollout: the followers elect a new leader":                         "%d. leader etcd-0 在滚动更新中途宕机：follower 们选出新 leader",
			"%s etcd-1 leads the new term":                   "%s etcd-1 成为新任期的 leader",
			"%d. The rollout goes on against the new leader": "%d. 滚动更新在新 leader 下继续",
			"%s 3 pods run nginx:1.27: the rollout finished": "%s 3 个 Pod 运行 nginx:1.27：滚动更新完成",
		},
		Run: runEtcdLeaderLoss,
	})
}

func runEtcdLeaderLoss(ctx context.Context, s *sim.Session) error {
	s.Step("A 3-member etcd, led by etcd-0: kubectl apply -f nginx-deployment.yaml")
	if !apply(ctx, s, manifests.NginxDeployment) {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment nginx available") {
		return s.Err()
	}
	s.Expect(leaderIs(s, "etcd-0"), "etcd-0 leads")

	s.Step("kubectl set image deployment/nginx nginx=nginx:1.27, and the rollout runs for %d units of work", leaderLossAfter)
	if err := s.Kubectl.SetImage(ctx, "default", "nginx", "nginx", "nginx:1.27"); err != nil {
		s.Expect(false, "kubectl set image: %v", err)
		return s.Err()
	}
	for range leaderLossAfter {
		if err := s.Driver.Settle(ctx); err != nil {
			return err
		}
		if _, err := s.Driver.Step(ctx); err != nil {
			return err
		}
	}

	s.Step("etcd-0, the leader, dies mid-rollout: the followers elect a new leader")
	// How long writes stall is wall-clock time (etcd's election), which a loaded machine stretches:
	// the story tells the election, and the rollout finishing below is the sign that nothing was lost.
	if err := s.StopEtcdMember(ctx, "etcd-0"); err != nil {
		return err
	}
	s.Expect(leaderIs(s, "etcd-1"), "etcd-1 leads the new term")

	s.Step("The rollout goes on against the new leader")
	if !until(ctx, s, 0, "deployment nginx complete", "pods -l app=nginx count 3") {
		return s.Err()
	}
	pods, err := livePods(ctx, s, "app=nginx")
	same := err == nil && len(pods) == 3
	for _, p := range pods {
		same = same && p.Spec.Containers[0].Image == "nginx:1.27"
	}
	s.Expect(same, "3 pods run nginx:1.27: the rollout finished")
	return s.Err()
}

// leaderLossAfter is how many units of work of the rollout run before the leader dies: past the new
// ReplicaSet's creation, before its pods are all ready.
const leaderLossAfter = 15

// etcd_slow.go: etcd-slow (article 2, section 2.2): etcd answers a write only after it has
// fsynced its log, so a slow disk slows every write, and since every step of the cluster's work is a
// write (a ReplicaSet, each Pod, each binding, each status), the whole cascade slows with it. The
// scenario runs the same flow twice, before and after the fault, and shows where the time goes: in
// etcd, not in the apiserver.
package scenarios

import (
	"context"
	"strings"
	"time"

	"kubesim/client"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:     "etcd-slow",
		StepOnly: true,
		Summary:  "etcd's disk turns slow (200ms per write): the same kubectl apply takes far longer, and the wait is in etcd",
		Teaches: `etcd acknowledges a write only once it is durable: appended to its write-ahead log and fsynced (and,
in a multi-member cluster, replicated to a majority). On a slow disk each fsync takes long, and
etcd_disk_wal_fsync_duration_seconds climbs. Every request that writes waits for it, and in Kubernetes
almost every step is a write: the Deployment, its ReplicaSet, each Pod, each binding, each status
update, each event, each Lease renewal. The apiserver is not busy meanwhile; it is waiting for etcd, so
its request latency equals etcd's wait.

The scenario applies the nginx Deployment on a healthy cluster and measures how long until the 3 pods
are bound and until the Deployment is available; deletes it; makes every etcd write wait 200ms; and
applies it again.

kubesim's etcd here runs in a temporary directory and so skips fsync altogether (etcd's
--unsafe-no-fsync, which is safe only for data nobody needs after a crash); kubesim fsyncs only where
data must survive (--data-dir). The 200ms is injected before each write instead, as a slow fsync would
add it.

Signs to look for: etcd's put lines saying "(the write waited 200ms in etcd)", every one of them after
the fault; the POST's apiserver latency going from 0s to 200ms, exactly etcd's wait; the pods bound
seconds later than before, although the same work was done. (The first run pulls the image and the
second does not, so only the control plane's part of the two runs is compared.)`,
		SummaryZH: "etcd 的磁盘变慢（每次写 200ms）：同样的 kubectl apply 慢得多，时间都耗在等 etcd 上",
		TeachesZH: `etcd 只在写入持久化之后才确认：追加到预写日志（WAL）并 fsync（在多成员集群里还要复制到多数成员）。
磁盘慢时每次 fsync 都很久，etcd_disk_wal_fsync_duration_seconds 不断攀升。每个写请求都要等它，而在
Kubernetes 里几乎每一步都是写：Deployment、它的 ReplicaSet、每个 Pod、每次绑定、每次状态更新、每个
事件、每次 Lease 续约。这期间 apiserver 并不忙；它在等 etcd，所以它的请求延迟就等于 etcd 的等待。

场景先在健康的集群上 apply nginx Deployment，测量到 3 个 Pod 绑定、到 Deployment 可用各用了多久；删
除它；让 etcd 的每次写入等待 200ms；再 apply 一次。

要看的信号：etcd 的 put 日志行写着 "(the write waited 200ms in etcd)"，故障之后的每一行都是；POST 的
apiserver 延迟从 0s 变成 200ms，正好是 etcd 的等待；Pod 绑定得比之前晚了好几秒，尽管做的是同样的工
作。（第一次运行要拉镜像，第二次不用，所以只比较两次运行中控制面的那部分。）`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. A healthy etcd: kubectl apply -f nginx-deployment.yaml, timed until the pods are bound and available":                             "%d. etcd 健康时：kubectl apply -f nginx-deployment.yaml，计时到 Pod 全部绑定、全部可用",
			"%d. kubectl delete deployment nginx, and wait until its pods are gone":                                                                "%d. kubectl delete deployment nginx，等它的 Pod 全部消失",
			"%d. etcd's disk turns slow: every write now waits 200ms before etcd answers":                                                          "%d. etcd 的磁盘变慢了：现在每次写入都要等 200ms etcd 才应答",
			"%d. The same kubectl apply -f nginx-deployment.yaml, timed the same way":                                                              "%d. 同样的 kubectl apply -f nginx-deployment.yaml，同样计时",
			"kubectl apply: POST %s in the apiserver; every pod bound after %s (%d etcd writes, %d of them waited); Deployment available after %s": "kubectl apply：POST 在 apiserver 里耗时 %s；%s 后所有 Pod 绑定完毕（%d 次 etcd 写入，其中 %d 次在等待）；%s 后 Deployment 可用",
			"%s all %d etcd writes until every pod was bound say \"(the write waited 200ms in etcd)\"":                                             "%s 直到所有 Pod 绑定为止的全部 %d 次 etcd 写入都写着“这次写入在 etcd 里等了 200ms”",
			"%s the POST took %s in the apiserver: exactly the 200ms it waited for etcd":                                                           "%s 这个 POST 在 apiserver 里用了 %s：正好是等 etcd 持久化的 200ms",
			"%s the POST took %s in the apiserver; %d etcd writes until every pod was bound, none waited":                                          "%s 这个 POST 在 apiserver 里用了 %s；直到所有 Pod 绑定共 %d 次 etcd 写入，没有一次需要等待",
			"%s the pods were bound %s after the apply instead of %s: the same work, waiting in etcd":                                              "%s Pod 在 apply 之后 %s 才绑定，而不是 %s：同样的工作，时间花在等 etcd 上",
		},
		Run: runEtcdSlow,
	})
}

// etcdPuts taps etcd's put lines.
func etcdPuts(s *sim.Session) *sim.Tap {
	return s.Tap(func(e trace.Event) bool { return e.Component == "etcd" && e.Action == "put" })
}

// waitedInEtcd counts the put lines that say the write waited.
func waitedInEtcd(puts []trace.Event) int {
	n := 0
	for _, e := range puts {
		if strings.Contains(e.Message, "(the write waited ") {
			n++
		}
	}
	return n
}

// createFlow is one measured run of kubectl apply -f nginx-deployment.yaml.
type createFlow struct {
	post         time.Duration // the apiserver's latency for the POST
	bound, ready time.Duration // cluster time from the apply until every pod is bound, and available
	puts, waited int           // etcd puts until every pod was bound, and how many of them waited
}

func measureCreate(ctx context.Context, s *sim.Session, tap *sim.Tap) (createFlow, bool) {
	var f createFlow
	latency := s.APIServer.RequestLatency("create", "deployments.apps")
	began := s.Now()
	tap.Reset()
	if !applyFile(ctx, s, "nginx-deployment.yaml") {
		return f, false
	}
	f.post = s.APIServer.RequestLatency("create", "deployments.apps") - latency
	if !until(ctx, s, 0, "pods -l app=nginx count 3", "pods -l app=nginx bound") {
		return f, false
	}
	f.bound = s.Now().Sub(began)
	puts := tap.Lines()
	f.puts, f.waited = len(puts), waitedInEtcd(puts)
	if !until(ctx, s, 0, "deployment nginx available") {
		return f, false
	}
	f.ready = s.Now().Sub(began)
	return f, true
}

func runEtcdSlow(ctx context.Context, s *sim.Session) error {
	tap := etcdPuts(s)

	s.Step("A healthy etcd: kubectl apply -f nginx-deployment.yaml, timed until the pods are bound and available")
	fast, ok := measureCreate(ctx, s, tap)
	if !ok {
		return s.Err()
	}
	s.Expect(fast.post == 0 && fast.waited == 0,
		"the POST took %s in the apiserver; %d etcd writes until every pod was bound, none waited", fast.post, fast.puts)
	measured(s, fast)

	s.Step("kubectl delete deployment nginx, and wait until its pods are gone")
	if err := s.Kubectl.Delete(ctx, "deployments", "default", "nginx", client.DeleteOptions{}); err != nil {
		s.Expect(false, "the Deployment is deleted: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=nginx gone", "replicasets nginx-* gone") {
		return s.Err()
	}

	s.Step("etcd's disk turns slow: every write now waits 200ms before etcd answers")
	s.SlowEtcd(200 * time.Millisecond)

	s.Step("The same kubectl apply -f nginx-deployment.yaml, timed the same way")
	slow, ok := measureCreate(ctx, s, tap)
	if !ok {
		return s.Err()
	}
	s.Expect(slow.post == 200*time.Millisecond, "the POST took %s in the apiserver: exactly the 200ms it waited for etcd", slow.post)
	s.Expect(slow.puts > 0 && slow.waited == slow.puts,
		`all %d etcd writes until every pod was bound say "(the write waited 200ms in etcd)"`, slow.puts)
	s.Expect(slow.bound >= time.Duration(slow.puts-1)*200*time.Millisecond && slow.bound > fast.bound+time.Second,
		"the pods were bound %s after the apply instead of %s: the same work, waiting in etcd", slow.bound, fast.bound)
	measured(s, slow)
	return s.Err()
}

// measured tells the trace what one run measured.
func measured(s *sim.Session, f createFlow) {
	s.Trace.Record(trace.Event{Component: "kubesim", Action: "measure"}.
		Msgf("kubectl apply: POST %s in the apiserver; every pod bound after %s (%d etcd writes, %d of them waited); Deployment available after %s",
			f.post, f.bound, f.puts, f.waited, f.ready))
}

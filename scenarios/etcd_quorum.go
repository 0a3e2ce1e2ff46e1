// etcd_quorum.go: etcd-quorum and etcd-quorum-5 (article 2, section 2.1): etcd commits a
// write once a majority of its members, the quorum, has it. Losing a minority changes nothing a
// client sees; losing the majority stops every write, while the apiserver's watch cache keeps
// answering the reads it can; one member back, and everything recovers. Both scenarios run in step
// mode with real waits inside the faults (etcd's elections run on its own wall-clock timers): the
// story prints members, leaders and their terms, never measured times, so it reads the same every run.
package scenarios

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
	"kubesim/wire"
)

func init() {
	for _, n := range []int{3, 5} {
		name := "etcd-quorum"
		if n == 5 {
			name = "etcd-quorum-5"
		}
		cfg := sim.FullCluster(2)
		cfg.EtcdMembers = n
		register(sim.Scenario{
			Name:     name,
			StepOnly: true,
			Summary:  fmt.Sprintf("a %d-member etcd loses members one by one: writes go on while a quorum of %d stands, time out without it, and recover", n, n/2+1),
			Teaches: fmt.Sprintf(`etcd is a Raft cluster: one member leads, every write goes through it and is committed once a
majority of members, the quorum, has it on disk. With %d members the quorum is %d, so %d may fail and
clients notice nothing. One more, and no member can be elected (an election also needs a quorum of
votes): every write waits, and after etcd's request timeout (5s plus two election timeouts) fails with
"etcdserver: request timed out", which kube-apiserver passes on as a 500 in etcd's words. Reads that
need etcd (a get, a consistent list) wait until the request's deadline: 504 Timeout. Reads the
apiserver serves from its watch cache (a list with resourceVersion=0, which is what informers start
with) still answer, with what the cache last saw. /readyz reports etcd-readiness failed. When a
member comes back, a leader is elected, the returning member catches up from the leader's log, and
the control plane resumes as if nothing happened.

Signs to look for: the etcd lines (members stopped, "no leader", the election and its term, who was behind), the
write that succeeds with a minority gone, the 500 "etcdserver: request timed out", the cached list that
still answers, /readyz's "[-]etcd-readiness failed", and the same write succeeding after the return.

The members are fsync-free (a temporary data directory); the timings are etcd's own, on the wall
clock: each fault and the failing write take real seconds and no cluster time.`, n, n/2+1, n/2),
			SummaryZH: fmt.Sprintf("%d 个成员的 etcd 一个接一个地失去成员：只要 %d 个的法定人数还在，写入照常；没有它就超时；成员回来后一切恢复", n, n/2+1),
			TeachesZH: fmt.Sprintf(`etcd 是一个 Raft 集群：一个成员当 leader，每次写入都经过它，等到多数成员（法定人数）写进磁盘才
算提交。%d 个成员时法定人数是 %d，所以可以坏 %d 个而客户端毫无察觉。再多坏一个，就选不出 leader（选
举同样需要法定人数的选票）：每次写入都在等，过了 etcd 的请求超时（5s 加两个选举超时）就以
"etcdserver: request timed out" 失败，kube-apiserver 原样以 500 转述 etcd 的话。需要 etcd 的读（get、
一致性 list）会一直等到请求的 deadline：504 Timeout。apiserver 从 watch cache 里回答的读（resourceVersion=0
的 list，也就是 informer 起步时用的）仍然有应答，内容是缓存最后看到的。/readyz 报告 etcd-readiness
failed。某个成员回来后，选出 leader，回来的成员从 leader 的日志追上进度，控制平面就像什么都没发生过
一样继续工作。

要看的信号：etcd 的各行（成员停止、"no leader"、选举及其任期、谁落后了），少数成员宕机时依然成功的写入，500
"etcdserver: request timed out"，仍然应答的缓存 list，/readyz 的 "[-]etcd-readiness failed"，以及成员
回来后同样的写入再次成功。

这些成员不做 fsync（临时数据目录）；时间是 etcd 自己的墙上时钟：每个故障和失败的写入都花真实的秒数，
不花集群时间。`, n, n/2+1, n/2),
			Cluster: cfg,
			ZH: catalog{
				"%d. A %d-member etcd under the control plane: kubectl apply -f nginx-deployment.yaml": "%d. 控制平面下是 %d 个成员的 etcd：kubectl apply -f nginx-deployment.yaml",
				"%d. %s dies: %d of %d members run, the quorum of %d still stands":                     "%d. %s 宕机：%d/%d 个成员在运行，法定人数 %d 仍然满足",
				"%s kubectl create namespace team-1 succeeds with %d of %d members: %v":                "%s 只有 %d/%d 个成员时 kubectl create namespace team-1 依然成功：%v",
				"%d. %s dies too: %d of %d members run, fewer than the quorum of %d":                   "%d. %s 也宕机了：%d/%d 个成员在运行，不足法定人数 %d",
				"%s kubectl get pods --resource-version=0 answers from the watch cache: 3 pods (%v)":   "%s kubectl get pods --resource-version=0 由 watch cache 应答：3 个 Pod（%v）",
				"%s /readyz: [-]etcd-readiness failed: reason withheld":                                "%s /readyz：[-]etcd-readiness failed: reason withheld（apiserver 未就绪）",
				"%d. %s comes back: a quorum again, an election, and it catches up":                    "%d. %s 回来了：法定人数恢复，举行选举，它追上日志",
				"%s kubectl create namespace team-3 succeeds again: %v":                                "%s kubectl create namespace team-3 又成功了：%v",
				"%s /readyz: [+]etcd-readiness ok":                                                     "%s /readyz：[+]etcd-readiness ok（apiserver 就绪）",
				"%s the control plane still holds nginx: %v":                                           "%s 控制平面仍然保有 nginx：%v",
				"%s kubectl create namespace team-2 fails: no quorum commits it":                       "%s kubectl create namespace team-2 失败：没有法定人数来提交它",
			},
			Run: func(ctx context.Context, s *sim.Session) error { return runEtcdQuorum(ctx, s, n) },
		})
	}
}

func runEtcdQuorum(ctx context.Context, s *sim.Session, n int) error {
	quorum := n/2 + 1
	s.Step("A %d-member etcd under the control plane: kubectl apply -f nginx-deployment.yaml", n)
	if !apply(ctx, s, manifests.NginxDeployment) {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment nginx available") {
		return s.Err()
	}
	s.Expect(leaderIs(s, "etcd-0"), "etcd-0 leads")

	// Stop the highest-numbered members first: the leader, etcd-0, stays, so losing the minority
	// costs no election.
	for i := n - 1; i >= quorum; i-- {
		name := fmt.Sprintf("etcd-%d", i)
		s.Step("%s dies: %d of %d members run, the quorum of %d still stands", name, i, n, quorum)
		if err := s.StopEtcdMember(ctx, name); err != nil {
			return err
		}
	}
	ns := 0
	create := func() error {
		ns++
		_, err := s.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("team-%d", ns)}})
		return err
	}
	err := create()
	s.Expect(err == nil, "kubectl create namespace team-1 succeeds with %d of %d members: %v", quorum, n, errText(err))

	lost := fmt.Sprintf("etcd-%d", quorum-1)
	s.Step("%s dies too: %d of %d members run, fewer than the quorum of %d", lost, quorum-1, n, quorum)
	if err := s.StopEtcdMember(ctx, lost); err != nil {
		return err
	}
	// kubectl --request-timeout=6s: kube-apiserver would otherwise wait 34s for etcd.
	wctx, cancel := context.WithTimeout(ctx, 6*time.Second)
	ns++
	_, err = s.Kubectl.Create(wctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("team-%d", ns)}})
	cancel()
	s.ExpectError(err, 504, "request did not complete within requested timeout")

	cl := s.Client("admin", "kubectl", "system:masters")
	resp, err := cl.Do(ctx, &wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", ResourceVersion: "0"})
	s.Expect(err == nil && resp.List != nil && len(resp.List.Items) == 3,
		"kubectl get pods --resource-version=0 answers from the watch cache: 3 pods (%v)", errText(err))
	rctx, rcancel := context.WithTimeout(ctx, 2*time.Second)
	_, err = s.Kubectl.Get(rctx, "deployments", "default", "nginx")
	rcancel()
	s.ExpectError(err, 504, "request did not complete within requested timeout")
	ready := s.APIServer.Readyz(ctx)
	s.Expect(!ready.Ready() && strings.Contains(ready.String(), "[-]etcd-readiness failed: reason withheld"),
		"/readyz: [-]etcd-readiness failed: reason withheld")

	s.Step("%s comes back: a quorum again, an election, and it catches up", lost)
	if err := s.StartEtcdMember(ctx, lost); err != nil {
		return err
	}
	err = create()
	s.Expect(err == nil, "kubectl create namespace team-3 succeeds again: %v", errText(err))
	ready = s.APIServer.Readyz(ctx)
	s.Expect(ready.Ready(), "/readyz: [+]etcd-readiness ok")
	if !until(ctx, s, 0, "deployment nginx available", "pods -l app=nginx count 3") {
		return s.Err()
	}
	return s.Err()
}

// leaderIs reports whether the etcd member name leads.
func leaderIs(s *sim.Session, name string) bool {
	for _, st := range s.Store.Cluster().Status() {
		if st.Running && st.Name == name {
			return st.Leader == name
		}
	}
	return false
}

// errText is err's text, or "ok".
func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

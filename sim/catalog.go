// catalog.go: the Chinese catalogue of a cluster's whole trace, for `--lang zh`. Each component keeps
// the translations of its trace lines next to its format strings (its zh.go); Catalog merges them
// with the simulator's own lines and a scenario's, so cmd/kubesim, Play and the tests narrate with
// the same table.
//
//	Catalog(scenario)   every component's catalogue, then kubectl's and the simulator's, then the
//	                    scenario's own (Scenario.ZH: its step headings and signs)
package sim

import (
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/client/leaderelection"
	"kubesim/controllers/daemonset"
	"kubesim/controllers/deployment"
	"kubesim/controllers/disruption"
	"kubesim/controllers/endpoints"
	"kubesim/controllers/endpointslice"
	"kubesim/controllers/garbagecollector"
	"kubesim/controllers/namespace"
	"kubesim/controllers/nodeipam"
	"kubesim/controllers/nodelifecycle"
	"kubesim/controllers/persistentvolume"
	"kubesim/controllers/podgc"
	"kubesim/controllers/replicaset"
	"kubesim/controllers/resourcequota"
	"kubesim/controllers/rootcacertpublisher"
	"kubesim/controllers/serviceaccount"
	"kubesim/kubectl"
	"kubesim/kubelet"
	"kubesim/kubeproxy"
	fakeruntime "kubesim/runtime"
	"kubesim/scheduler"
	"kubesim/scheduler/plugins"
	"kubesim/scheduler/queue"
	"kubesim/store"
	"kubesim/trace"
)

// Catalog returns the translations of every trace line a cluster records, then kubectl's and the
// simulator's own (the boot line, Play's header and verdict, faults), then the scenario's (its step
// headings and signs); a later catalogue wins where two translate the same format.
func Catalog(scenario trace.Catalog) trace.Catalog {
	return trace.Merge(
		apiserver.ZH, store.ZH, client.ZH, leaderelection.ZH,
		daemonset.ZH, deployment.ZH, disruption.ZH, garbagecollector.ZH, namespace.ZH, nodelifecycle.ZH, podgc.ZH,
		replicaset.ZH, resourcequota.ZH, serviceaccount.ZH, rootcacertpublisher.ZH, nodeipam.ZH, endpointslice.ZH, endpoints.ZH,
		persistentvolume.ZH,
		scheduler.ZH, queue.ZH, plugins.ZH,
		kubelet.ZH, fakeruntime.ZH, kubeproxy.ZH,
		kubectl.ZH, zhSim, zhPause, zhEtcd,
		scenario,
	)
}

// zhSim translates the simulator's own lines: Play's header and verdict, the step prompt, faults, the
// signs of Session.ExpectError.
var zhSim = trace.Catalog{
	"%s %s: still not, after %s of cluster time: saw %s": "%s %s：集群时间过去了 %s，仍未达成：看到的是 %s",
	"%s %s: still not, after %s of cluster time":         "%s %s：集群时间过去了 %s，仍未达成",
	// the boot sequence and Play
	"The cluster starts: %s":                                    "集群启动：%s",
	"%s started: informers synced":                              "%s 已启动：informer 已同步",
	"scenario %s: %s":                                           "场景 %s：%s",
	"cluster: %s, %s, seed %d":                                  "集群：%s；%s，随机种子 %d",
	"step mode":                                                 "单步模式",
	"real time at %gx":                                          "实时运行，%g 倍速",
	"stopped at the breakpoint: %s holds":                       "在断点处停下：%s 已成立",
	"stopped at the prompt":                                     "按提示停下",
	"interrupted after %s of cluster time.":                     "被中断，集群时间过去了 %s。",
	"%s (%s of cluster time).":                                  "%s（集群时间过去了 %s）。",
	"stopped after %d steps":                                    "运行 %d 步后停下",
	"done in %s of cluster time: every expected sign was seen.": "完成，集群时间用了 %s：期望的迹象全部出现。",
	"scenario %s failed: %v":                                    "场景 %s 失败：%v",
	"%s %d %s (but the request succeeded)":                      "%s %d %s（但请求成功了）",
	"%s %d %s: %s":                                              "%s 请求被拒绝：%d %s：%s",
	"%s %d %s (got %d %s)":                                      "%s %d %s（实际得到 %d %s）",
	// faults
	"etcd writes are fast again":                               "etcd 写入恢复了正常速度",
	"etcd's disk is slow: every write now waits %s for fsync":  "etcd 的磁盘变慢：每次写入都要等 %s 完成 fsync（持久化）",
	"the client certificate of %s has expired":                 "%s 的客户端证书已过期（认证将失败）",
	"the client certificate of %s was renewed":                 "%s 的客户端证书已经续期",
	"network partition: %s can no longer reach kube-apiserver": "网络分区：%s 再也连不上 kube-apiserver",
	"network healed: %s reaches kube-apiserver again":          "网络恢复：%s 又能连上 kube-apiserver 了",
	"%s stopped":       "%s 停止了",
	"%s started again": "%s 重新启动了",
	"the container runtime on %s answers normally again":                    "%s 上的容器运行时恢复正常应答",
	"the container runtime on %s: %s":                                       "%s 上的容器运行时：%s",
	"the clock of %s is right again":                                        "%s 的时钟恢复准确",
	"the clock of %s is off by %s (NTP is not running)":                     "%s 的时钟偏差 %s（NTP 没有运行）",
	"%s was killed: its controllers stop, its Lease is left to expire":      "%s 被杀掉：它的控制器全部停止，它的 Lease 等着过期",
	"%s was killed: it schedules nothing more, its Lease is left to expire": "%s 被杀掉：它不再调度任何 Pod，它的 Lease 等着过期",
	"webhook service %s answers again":                                      "webhook 服务 %s 恢复应答",
	"webhook service %s %s":                                                 "webhook 服务 %s %s",
}

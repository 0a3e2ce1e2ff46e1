// zh_etcd.go: the Chinese telling of the etcd scenarios' steps and signs (etcd-quorum, etcd-quorum-5,
// etcd-leader-loss) and of faults_etcd.go's line; they move next to their scenarios with the rest.
package sim

import "kubesim/trace"

var zhEtcd = trace.Catalog{
	// faults_etcd.go
	"etcdctl snapshot save: the whole keyspace at revision %d, in one file": "etcdctl snapshot save：整个键空间（revision %d）存进一个文件",

	"etcdutl snapshot restore: a new etcd, a new cluster, whose data is the snapshot's": "etcdutl snapshot restore：一个新的 etcd、一个新的集群，数据就是快照里的",

	// etcd-snapshot
	"%d. kubectl apply: the namespace shop and a Deployment web in it":                                "%d. kubectl apply：命名空间 shop 以及其中的 Deployment web",
	"%d. etcdctl snapshot save: the whole keyspace in one file":                                       "%d. etcdctl snapshot save：整个键空间存进一个文件",
	"%d. kubectl delete namespace shop, by mistake":                                                   "%d. 误操作：kubectl delete namespace shop",
	"%s etcd holds none of the %d keys of namespace shop":                                             "%s etcd 里命名空间 shop 的 %d 个键一个都不剩了",
	"%d. etcdutl snapshot restore into a new data directory, and a new etcd started from it":          "%d. etcdutl snapshot restore 恢复到一个新的数据目录，并从它启动一个新的 etcd",
	"%s the restored etcd holds namespace shop and all its %d keys, byte for byte as at the snapshot": "%s 恢复出的 etcd 里有命名空间 shop 及其全部 %d 个键，与快照时逐字节相同",

	// etcd-quorum, etcd-quorum-5
	"%d. A %d-member etcd under the control plane: kubectl apply -f nginx-deployment.yaml": "%d. 控制平面下是 %d 个成员的 etcd：kubectl apply -f nginx-deployment.yaml",
	"%s etcd-0 leads": "%s etcd-0 是 leader",
	"%d. %s dies: %d of %d members run, the quorum of %d still stands":                   "%d. %s 宕机：%d/%d 个成员在运行，法定人数 %d 仍然满足",
	"%s kubectl create namespace team-1 succeeds with %d of %d members: %v":              "%s 只有 %d/%d 个成员时 kubectl create namespace team-1 依然成功：%v",
	"%d. %s dies too: %d of %d members run, fewer than the quorum of %d":                 "%d. %s 也宕机了：%d/%d 个成员在运行，不足法定人数 %d",
	"%s kubectl get pods --resource-version=0 answers from the watch cache: 3 pods (%v)": "%s kubectl get pods --resource-version=0 由 watch cache 应答：3 个 Pod（%v）",
	"%s /readyz: [-]etcd-readiness failed: reason withheld":                              "%s /readyz：[-]etcd-readiness failed: reason withheld（apiserver 未就绪）",
	"%d. %s comes back: a quorum again, an election, and it catches up":                  "%d. %s 回来了：法定人数恢复，举行选举，它追上日志",
	"%s kubectl create namespace team-3 succeeds again: %v":                              "%s kubectl create namespace team-3 又成功了：%v",
	"%s /readyz: [+]etcd-readiness ok":                                                   "%s /readyz：[+]etcd-readiness ok（apiserver 就绪）",
	"%s the control plane still holds nginx: %v":                                         "%s 控制平面仍然保有 nginx：%v",
	"%s kubectl create namespace team-2 fails: no quorum commits it":                     "%s kubectl create namespace team-2 失败：没有法定人数来提交它",

	// etcd-leader-loss
	"%d. A 3-member etcd, led by etcd-0: kubectl apply -f nginx-deployment.yaml":                         "%d. 3 个成员的 etcd，leader 是 etcd-0：kubectl apply -f nginx-deployment.yaml",
	"%d. kubectl set image deployment/nginx nginx=nginx:1.27, and the rollout runs for %d units of work": "%d. kubectl set image deployment/nginx nginx=nginx:1.27，滚动更新执行 %d 个工作单元",
	"%d. etcd-0, the leader, dies mid-rollout: the followers elect a new leader":                         "%d. leader etcd-0 在滚动更新中途宕机：follower 们选出新 leader",
	"%s etcd-1 leads the new term": "%s etcd-1 成为新任期的 leader",
	"%s writes stalled only for the election: well under etcd's 1s default election timeout twice over": "%s 写入只在选举期间停顿：远小于 etcd 默认选举超时 1s 的两倍",
	"%d. The rollout goes on against the new leader":                                                    "%d. 滚动更新在新 leader 下继续",
	"%s 3 pods run nginx:1.27: the rollout finished":                                                    "%s 3 个 Pod 运行 nginx:1.27：滚动更新完成",
}

// etcd_snapshot.go: etcd-snapshot (article 2, section 2.3): the daily snapshot that saves a
// cluster from `kubectl delete namespace` typed in the wrong terminal. The scenario saves a snapshot
// with etcd's own code, deletes a namespace (the namespace controller deletes everything in it), then
// restores the snapshot under the running cluster as Kubernetes' guide says to (stop kube-apiserver,
// etcdutl snapshot restore with a bumped, compacted revision, start kube-apiserver), and watches the
// control plane list again and the kubelets run the namespace's pods once more.
package scenarios

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "etcd-snapshot",
		StepOnly: true,
		Summary:  "save an etcd snapshot, delete a namespace by mistake, restore the snapshot: everything in it is back",
		Teaches: `All of a cluster's state is in etcd, so a backup of etcd is a backup of the cluster. etcdctl snapshot
save asks a member for its whole database, a consistent copy at one revision, and writes it to a
file with a checksum. etcdutl snapshot restore turns that file into a new data directory: a new etcd
cluster (a new cluster ID, new membership) whose keys are exactly the snapshot's. Whatever was written
after the snapshot is lost, which is why snapshots are taken on a schedule.

The scenario creates the namespace shop with a Deployment in it, saves a snapshot, deletes the
namespace (the namespace controller deletes the Deployment, its ReplicaSet, its pods, its service
account, then the namespace itself), and restores the snapshot under the running cluster the way
Kubernetes' guide says: stop kube-apiserver, restore etcd, start kube-apiserver. The restored
revision is older than the ones every component has seen, so the restore bumps it past them and
marks everything before it compacted (--bump-revision, --mark-compacted): no watch can resume, every
informer is answered 410 Gone and lists again, and each component acts on what it finds.

Signs to look for: the snapshot line with its revision; the namespace's keys gone from etcd after the
delete; every one of them back, byte for byte, after the restore; a relist line from every
component; the kubelets finding pods bound to their nodes with no containers behind them, and
starting them again under their old names (new sandboxes, new pod IPs). kubesim restarts
kube-apiserver and relists every informer; Kubernetes' guide also restarts the other components.`,
		SummaryZH: "保存 etcd 快照，误删一个命名空间，再从快照恢复：里面的一切都回来了",
		TeachesZH: `集群的全部状态都在 etcd 里，所以 etcd 的备份就是集群的备份。etcdctl snapshot save 向一个成员要
它的整个数据库，也就是某个 revision 上的一致副本，连同校验和写进一个文件。etcdutl snapshot restore
把这个文件变成一个新的数据目录：一个新的 etcd 集群（新的集群 ID、新的成员关系），其中的键与快照完
全相同。快照之后写入的东西都会丢失，所以快照要定期做。

这个场景创建命名空间 shop 并在其中放一个 Deployment，保存快照，删除该命名空间（namespace 控制器依次
删掉 Deployment、它的 ReplicaSet、它的 Pod、它的 service account，最后是命名空间本身），然后按
Kubernetes 文档的做法在运行中的集群下恢复快照：停掉 kube-apiserver，恢复 etcd，再启动 kube-apiserver。
恢复出的 revision 比各组件见过的都旧，所以恢复时把 revision 抬高到它们之上，并把之前的历史标记为已压缩
（--bump-revision、--mark-compacted）：没有哪个 watch 能接着续上，每个 informer 都得到 410 Gone 并重新
list，每个组件再按它看到的情况行事。

要看的信号：带 revision 的快照那一行；删除之后 etcd 里已经没有这个命名空间的键；恢复之后它们一个不少、
逐字节相同地回来了；每个组件的 relist 行；kubelet 发现绑定到本节点的 Pod 背后没有容器，于是以原来的
名字把它们重新跑起来（新的 sandbox、新的 Pod IP）。kubesim 重启 kube-apiserver 并让每个 informer 重新
list；Kubernetes 的文档还建议重启其余组件。`,
		Cluster: sim.FullCluster(2),
		ZH: catalog{
			"%d. kubectl apply: the namespace shop and a Deployment web in it":                                                                            "%d. kubectl apply：命名空间 shop 以及其中的 Deployment web",
			"%d. etcdctl snapshot save: the whole keyspace in one file":                                                                                   "%d. etcdctl snapshot save：整个键空间存进一个文件",
			"%d. kubectl delete namespace shop, by mistake":                                                                                               "%d. 误操作：kubectl delete namespace shop",
			"%s etcd holds none of the %d keys of namespace shop":                                                                                         "%s etcd 里命名空间 shop 的 %d 个键一个都不剩了",
			"%d. restore the snapshot under the cluster: stop kube-apiserver, etcdutl snapshot restore, start kube-apiserver":                             "%d. 在集群之下恢复快照：停掉 kube-apiserver，etcdutl snapshot restore，再启动 kube-apiserver",
			"%s the restored etcd holds namespace shop and all its %d keys, byte for byte as at the snapshot":                                             "%s 恢复出的 etcd 里有命名空间 shop 及其全部 %d 个键，与快照时逐字节相同",
			"%d. every informer lists again; the kubelets find pods bound to them with no containers, and start them":                                     "%d. 每个 informer 重新 list；kubelet 发现绑定到本节点的 Pod 没有容器，于是把它们启动起来",
			"%s the kubelets run the restored pods again and report them Ready":                                                                           "%s kubelet 把恢复回来的 Pod 重新跑起来并报告 Ready",
			"%s the %d pods of web run again under the names they had at the snapshot: the kubelets adopted them, the ReplicaSet controller created none": "%s web 的 %d 个 Pod 以快照时的名字重新运行：kubelet 接管了它们，ReplicaSet 控制器一个也没有新建",
		},
		Run: runEtcdSnapshot,
	})
}

func runEtcdSnapshot(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: the namespace shop and a Deployment web in it")
	if !applyFile(ctx, s, "shop-namespace.yaml") || !applyFile(ctx, s, "shop-web.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment web -n shop available") {
		return s.Err()
	}

	s.Step("etcdctl snapshot save: the whole keyspace in one file")
	dir, err := os.MkdirTemp("", "kubesim-snapshot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "snapshot.db")
	if _, err := s.SnapshotEtcd(ctx, file); err != nil {
		return err
	}
	saved, err := namespaceKeys(ctx, s.Ledger(), "shop")
	if err != nil {
		return err
	}

	s.Step("kubectl delete namespace shop, by mistake")
	if err := s.Kubectl.Delete(ctx, "namespaces", "", "shop", client.DeleteOptions{}); err != nil {
		s.Expect(false, "kubectl delete namespace shop: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 0, "namespace shop gone") {
		return s.Err()
	}
	left, err := namespaceKeys(ctx, s.Ledger(), "shop")
	if err != nil {
		return err
	}
	s.Expect(len(left) == 0, "etcd holds none of the %d keys of namespace shop", len(saved))

	s.Step("restore the snapshot under the cluster: stop kube-apiserver, etcdutl snapshot restore, start kube-apiserver")
	restoredRev, err := s.RestoreEtcdSnapshot(ctx, file)
	if err != nil {
		return err
	}
	back, err := namespaceKeys(ctx, s.Ledger(), "shop")
	if err != nil {
		return err
	}
	s.Expect(len(saved) > 0 && slices.EqualFunc(saved, back, func(a, b sim.KV) bool {
		return a.Key == b.Key && string(a.Value) == string(b.Value)
	}), "the restored etcd holds namespace shop and all its %d keys, byte for byte as at the snapshot", len(saved))

	s.Step("every informer lists again; the kubelets find pods bound to them with no containers, and start them")
	var savedPods []string
	for _, kv := range saved {
		if name, ok := strings.CutPrefix(kv.Key, "/registry/pods/shop/"); ok {
			savedPods = append(savedPods, name)
		}
	}
	var pods []*api.Pod
	restarted := func() bool {
		pods = objectsNow[api.Pod](ctx, s, "shop", "app=web")
		for _, p := range pods {
			rv, _ := strconv.ParseInt(p.ResourceVersion, 10, 64)
			if rv <= restoredRev || podReady(p) != api.ConditionTrue {
				return false
			}
		}
		return len(pods) > 0
	}
	if !settled(ctx, s, restarted) {
		s.Expect(false, "the kubelets run the restored pods again and report them Ready")
		return s.Err()
	}
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
	}
	s.Expect(slices.Equal(names, savedPods),
		"the %d pods of web run again under the names they had at the snapshot: the kubelets adopted them, the ReplicaSet controller created none", len(savedPods))
	return s.Err()
}

// namespaceKeys reads, from etcd itself, every key of a namespace: the Namespace object and every
// object in it (/registry/<resource>/<namespace>/<name>), sorted by key.
func namespaceKeys(ctx context.Context, st sim.Ledger, namespace string) ([]sim.KV, error) {
	kvs, _, err := st.List(ctx, "/registry/", 0)
	if err != nil {
		return nil, err
	}
	var out []sim.KV
	for _, kv := range kvs {
		if kv.Key == "/registry/namespaces/"+namespace || strings.Contains(kv.Key, "/"+namespace+"/") {
			out = append(out, kv)
		}
	}
	return out, nil
}

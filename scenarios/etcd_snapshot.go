// etcd_snapshot.go: etcd-snapshot (article 2, section 2.3): the daily snapshot that saves a
// cluster from `kubectl delete namespace` typed in the wrong terminal. The scenario saves a snapshot
// with etcd's own code, deletes a namespace (the namespace controller deletes everything in it),
// restores the snapshot with etcd's own code into a new data directory, starts a new etcd from it,
// and finds every key of the namespace there again, as it was at the snapshot.
package scenarios

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kubesim/client"
	"kubesim/scenarios/manifests"
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
account, then the namespace itself), restores the snapshot into a new etcd, and compares.

Signs to look for: the snapshot line with its revision; the namespace's keys gone from etcd after the
delete; every one of them back, byte for byte, in the restored etcd. (Rebuilding the control plane on
the restored etcd, as Kubernetes' restore procedure goes on to do, is not part of the scenario.)`,
		SummaryZH: "保存 etcd 快照，误删一个命名空间，再从快照恢复：里面的一切都回来了",
		TeachesZH: `集群的全部状态都在 etcd 里，所以 etcd 的备份就是集群的备份。etcdctl snapshot save 向一个成员要
它的整个数据库，也就是某个 revision 上的一致副本，连同校验和写进一个文件。etcdutl snapshot restore
把这个文件变成一个新的数据目录：一个新的 etcd 集群（新的集群 ID、新的成员关系），其中的键与快照完
全相同。快照之后写入的东西都会丢失，所以快照要定期做。

这个场景创建命名空间 shop 并在其中放一个 Deployment，保存快照，删除该命名空间（namespace 控制器依次
删掉 Deployment、它的 ReplicaSet、它的 Pod、它的 service account，最后是命名空间本身），再把快照恢
复到一个新的 etcd 里做比较。

要看的信号：带 revision 的快照那一行；删除之后 etcd 里已经没有这个命名空间的键；在恢复出的 etcd 里
它们一个不少，逐字节相同地回来了。（Kubernetes 的恢复流程接下来还要在恢复出的 etcd 上重建控制平
面，这不在本场景之内。）`,
		Cluster: sim.FullCluster(2),
		ZH: catalog{
			"%d. kubectl apply: the namespace shop and a Deployment web in it":                                "%d. kubectl apply：命名空间 shop 以及其中的 Deployment web",
			"%d. etcdctl snapshot save: the whole keyspace in one file":                                       "%d. etcdctl snapshot save：整个键空间存进一个文件",
			"%d. kubectl delete namespace shop, by mistake":                                                   "%d. 误操作：kubectl delete namespace shop",
			"%s etcd holds none of the %d keys of namespace shop":                                             "%s etcd 里命名空间 shop 的 %d 个键一个都不剩了",
			"%d. etcdutl snapshot restore into a new data directory, and a new etcd started from it":          "%d. etcdutl snapshot restore 恢复到一个新的数据目录，并从它启动一个新的 etcd",
			"%s the restored etcd holds namespace shop and all its %d keys, byte for byte as at the snapshot": "%s 恢复出的 etcd 里有命名空间 shop 及其全部 %d 个键，与快照时逐字节相同",
		},
		Run: runEtcdSnapshot,
	})
}

// ShopYAML is a namespace with a Deployment in it: what a mistaken delete takes away.
var ShopYAML = manifests.Read("shop.yaml")

func runEtcdSnapshot(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: the namespace shop and a Deployment web in it")
	if _, err := s.Kubectl.Apply(ctx, []byte(ShopYAML)); err != nil {
		s.Expect(false, "namespace shop and its Deployment are created: %v", err)
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

	s.Step("etcdutl snapshot restore into a new data directory, and a new etcd started from it")
	restored, err := s.RestoreEtcdSnapshot(ctx, file, filepath.Join(dir, "restored"))
	if err != nil {
		return err
	}
	defer restored.Close()
	back, err := namespaceKeys(ctx, restored, "shop")
	if err != nil {
		return err
	}
	s.Expect(len(saved) > 0 && slices.EqualFunc(saved, back, func(a, b sim.KV) bool {
		return a.Key == b.Key && string(a.Value) == string(b.Value)
	}), "the restored etcd holds namespace shop and all its %d keys, byte for byte as at the snapshot", len(saved))
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

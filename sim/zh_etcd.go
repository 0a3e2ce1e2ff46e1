// zh_etcd.go: the Chinese telling of the etcd faults' lines (faults_etcd.go).
package sim

import "kubesim/trace"

var zhEtcd = trace.Catalog{
	"etcdctl snapshot save: the whole keyspace at revision %d, in one file":             "etcdctl snapshot save：整个键空间（revision %d）存进一个文件",
	"etcdutl snapshot restore: a new etcd, a new cluster, whose data is the snapshot's": "etcdutl snapshot restore：一个新的 etcd、一个新的集群，数据就是快照里的",
}

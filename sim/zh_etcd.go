// zh_etcd.go: the Chinese telling of the etcd faults' lines (faults_etcd.go, restore.go).
package sim

import "kubesim/trace"

var zhEtcd = trace.Catalog{
	"etcdctl snapshot save: the whole keyspace at revision %d, in one file":       "etcdctl snapshot save：整个键空间（revision %d）存进一个文件",
	"kube-apiserver stopped: every component's requests fail and its watches end": "kube-apiserver 停止了：每个组件的请求都失败，它们的 watch 都断开",
	"etcdutl snapshot restore --bump-revision %d --mark-compacted: a new etcd holding the snapshot's data (revision %d), now at revision %d, past the %d every client has seen; every older revision reads as compacted": "etcdutl snapshot restore --bump-revision %d --mark-compacted：一个新的 etcd，数据是快照里的（revision %d），现在的 revision 是 %d，超过了所有客户端见过的 %d；更早的 revision 都算作已压缩",
	"kube-apiserver started on the restored etcd: its watch cache lists everything at revision %d; a watch from an older resourceVersion is answered 410 Gone, so every informer lists again":                            "kube-apiserver 在恢复出的 etcd 上重新启动：它的 watch cache 在 revision %d 上列出全部对象；从更早的 resourceVersion 开始的 watch 得到 410 Gone，所以每个 informer 都重新 list",
}

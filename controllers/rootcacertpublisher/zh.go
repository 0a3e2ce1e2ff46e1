// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package rootcacertpublisher

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"reconcile namespace %s failed: %v (retry %d with backoff)":         "调谐命名空间 %s 失败：%v（第 %d 次退避重试）",
	"namespace %s has no ConfigMap %s: create it with the cluster's CA": "命名空间 %s 没有 ConfigMap %s：用集群的 CA 证书创建它",
	"ConfigMap %s/%s no longer holds the cluster's CA: put it back":     "ConfigMap %s/%s 不再是集群的 CA 证书：改回来",
}

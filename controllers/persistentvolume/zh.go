// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package persistentvolume

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"claim %s has no storageClassName: give it the default StorageClass %s":        "claim %s 没有 storageClassName：赋予默认 StorageClass %s",
	"claim %s has no volume: ask the provisioner %s of StorageClass %s":            "claim %s 没有卷：请 provisioner %s（StorageClass %s）创建",
	"claim %s stays Pending: %s":                                                   "claim %s 保持 Pending：%s",
	"bind claim %s to volume %s":                                                   "把 claim %s 绑定到卷 %s",
	"claim %s/%s of volume %s is gone and its reclaim policy is Delete: delete it": "claim %s/%s 已删除，卷 %s 的回收策略为 Delete：删除该卷",
	"volume %s: phase %s -> %s":                                                    "卷 %s：phase %s -> %s",
	"%s makes volume %s for claim %s":                                              "%s 创建卷 %s，供 claim %s 使用",
}

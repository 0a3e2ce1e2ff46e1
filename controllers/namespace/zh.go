// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package namespace

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"namespace %s is Terminating: deleted %s":                                                           "命名空间 %s 处于 Terminating：删除了 %s",
	"namespace %s still holds %s being deleted: check again in %s":                                      "命名空间 %s 里还有正在删除的 %s：%s 后再查看",
	"namespace %s is empty: remove the finalizer %q (namespaces/finalize), so the apiserver deletes it": "命名空间 %s 已清空：通过 namespaces/finalize 去掉 finalizer %q，apiserver 随即删除它",
})

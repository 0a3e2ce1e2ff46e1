// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package garbagecollector

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"%s is gone: check its dependents %v":                                                                   "%s 已不存在：检查它的依赖对象 %v",
	"delete %s: its owner %s is gone (background propagation)":                                              "删除 %s：它的属主 %s 已不存在（后台级联删除）",
	"delete %s: its owner %s is being deleted in the foreground (propagationPolicy %s)":                     "删除 %s：它的属主 %s 正在前台删除（propagationPolicy %s）",
	"%s: owner %s still exists; remove the ownerReferences to %s":                                           "%s：属主 %s 仍在；去掉指向 %s 的 ownerReferences",
	"orphan the dependents of %s %v: remove their ownerReference, then the orphan finalizer":                "孤立 %s 的依赖对象 %v：先去掉它们的 ownerReference，再去掉 orphan finalizer",
	"%s is deleted in the foreground: waiting for %d dependents with blockOwnerDeletion %v":                 "%s 正在前台删除：等待 %d 个带 blockOwnerDeletion 的依赖对象 %v",
	"no dependent blocks %s any more: remove the foregroundDeletion finalizer, so the apiserver deletes it": "已没有依赖对象阻塞 %s：去掉 foregroundDeletion finalizer，apiserver 随即删除它",
})

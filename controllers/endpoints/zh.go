// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in scenarios fails when a narrated format has no entry here.
package endpoints

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"Service %s is gone: delete its Endpoints": "Service %s 已不存在：删除它的 Endpoints",
	"Service %s: create Endpoints: %s":         "Service %s：创建 Endpoints：%s",
	"Service %s: update Endpoints: %s":         "Service %s：更新 Endpoints：%s",
})

// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in scenarios fails when a narrated format has no entry here.
package endpointslice

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"Service %s is gone: delete its EndpointSlice %s":                 "Service %s 已不存在：删除它的 EndpointSlice %s",
	"Service %s no longer needs EndpointSlice %s (its ports changed)": "Service %s 不再需要 EndpointSlice %s（它的端口变了）",
	"Service %s/%s: create EndpointSlice %s: %s":                      "Service %s/%s：创建 EndpointSlice %s：%s",
	"Service %s/%s: update EndpointSlice %s: %s":                      "Service %s/%s：更新 EndpointSlice %s：%s",
})

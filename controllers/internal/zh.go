// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package internal

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"reconcile %s failed: %v -> requeued with backoff (retry %d)": "调谐 %s 失败：%v -> 按退避重新入队（第 %d 次重试）",
}

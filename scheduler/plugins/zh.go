// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package plugins

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"preempt for %s/%s (priority %d): evict %s on %s, then nominate %s": "为 %s/%s（优先级 %d）抢占：驱逐 %s（在 %s 上），然后提名 %s",
	"could not clear nominatedNodeName of %s/%s: %v":                    "无法清除 %s/%s 的 nominatedNodeName：%v",
}

// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package client

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"%s: watch from resourceVersion %s answered 410 Gone (%s): listing everything again": "%s：从 resourceVersion %s 续 watch 得到 410 Gone（%s）：重新全量 list",
	"could not record event %s %s: %v":                                                   "无法记录事件 %s %s：%v",
	"%s: watch failed, will retry: %v":                                                   "%s：watch 失败，稍后重试：%v",
}

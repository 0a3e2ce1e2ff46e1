// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in scenarios fails when a narrated format has no entry here.
package kubeproxy

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"syncProxyRules: %d service ports, %d endpoints, %d ports without endpoints (REJECT)": "syncProxyRules：%d 个服务端口，%d 个端点，%d 个端口没有端点（REJECT）",
}

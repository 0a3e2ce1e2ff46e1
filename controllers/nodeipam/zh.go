// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in scenarios fails when a narrated format has no entry here.
package nodeipam

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"node %s has no podCIDR: assign %s (cluster CIDR %s)": "节点 %s 还没有 podCIDR：分配 %s（集群 CIDR %s）",
}

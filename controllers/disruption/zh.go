// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package disruption

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"budget %s: %d healthy of %d expected, %d desired -> disruptionsAllowed %d": "预算 %s：健康 %d 个（应有 %d 个），要求至少 %d 个 -> disruptionsAllowed %d",
}

// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package leaderelection

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"new leader: %s": "新的 leader：%s",
	"successfully acquired lease %s as %s (created it)":                              "成功获得 Lease %s，身份 %s（新建）",
	"successfully acquired lease %s as %s (it already named us)":                     "成功获得 Lease %s，身份 %s（它本来就记着我们）",
	"successfully acquired lease %s as %s (previous holder %q, leaseTransitions %d)": "成功获得 Lease %s，身份 %s（前任 %q，leaseTransitions %d）",
	"renewed lease %s": "续约 Lease %s",
	"lock %s is held by %s and has not yet expired (last change seen %s ago, leaseDuration %s)":                     "锁 %s 由 %s 持有且未过期（%s 前看到它更新，leaseDuration %s）",
	"failed to renew lease %s: context deadline exceeded (last renewed %s ago, renewDeadline %s): %s stops leading": "failed to renew lease %s: context deadline exceeded（上次续约在 %s 前，renewDeadline %s）：%s 不再担任 leader",
	"error retrieving resource lock %s: %v":               "读取资源锁 %s 出错：%v",
	"error initially creating leader election record: %v": "首次创建选主记录出错：%v",
	"failed to update lock %s: %v":                        "更新锁 %s 失败：%v",
}

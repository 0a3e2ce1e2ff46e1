// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package queue

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"pending pod %s -> activeQ (priority %d)":                                                    "待调度的 Pod %s -> activeQ（优先级 %d）",
	"%s -> unschedulablePods: waits for a cluster event that %v registered, or 5m0s":             "%s -> unschedulablePods：等待 %v 关心的集群事件，最多 5m0s",
	"%s: backoff over -> activeQ":                                                                "%s：退避结束 -> activeQ",
	"%s -> activeQ (after an error)":                                                             "%s -> activeQ（出错之后）",
	"%s -> activeQ (a cluster event arrived during its scheduling cycle)":                        "%s -> activeQ（调度周期中来了集群事件）",
	"%s -> activeQ (the pod was updated)":                                                        "%s -> activeQ（Pod 被更新了）",
	"%s -> activeQ (it has waited 5m0s (podMaxInUnschedulablePodsDuration))":                     "%s -> activeQ（已等了 5m0s（podMaxInUnschedulablePodsDuration））",
	"%s -> activeQ (cluster event %s)":                                                           "%s -> activeQ（集群事件 %s）",
	"%s -> backoffQ for %s, attempt %d (after an error)":                                         "%s -> backoffQ 退避 %s，第 %d 次尝试（出错之后）",
	"%s -> backoffQ for %s, attempt %d (a cluster event arrived during its scheduling cycle)":    "%s -> backoffQ 退避 %s，第 %d 次尝试（调度周期中来了集群事件）",
	"%s -> backoffQ for %s, attempt %d (the pod was updated)":                                    "%s -> backoffQ 退避 %s，第 %d 次尝试（Pod 被更新了）",
	"%s -> backoffQ for %s, attempt %d (it has waited 5m0s (podMaxInUnschedulablePodsDuration))": "%s -> backoffQ 退避 %s，第 %d 次尝试（已等了 5m0s（podMaxInUnschedulablePodsDuration））",
	"%s -> backoffQ for %s, attempt %d (cluster event %s)":                                       "%s -> backoffQ 退避 %s，第 %d 次尝试（集群事件 %s）",
}

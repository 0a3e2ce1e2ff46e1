// zh.go: the Chinese telling of kubectl's trace lines (--lang zh), passed to the narrator by whoever
// wires the cluster (sim.Catalog).
package kubectl

import "kubesim/trace"

// ZH translates the trace lines kubectl records.
var ZH = trace.Catalog{
	"%s %s":                              "请求 %s %s",
	"GET %s %s":                          "请求 GET %s %s",
	"LIST %s":                            "请求 LIST %s",
	"DELETE %s %s":                       "请求 DELETE %s %s",
	"PATCH %s/scale %s/%s (replicas %d)": "请求 PATCH %s/scale %s/%s（副本数 %d）",
	"GET %s %s (kubectl apply: does it exist yet?)":               "请求 GET %s %s（kubectl apply：对象已经存在了吗？）",
	"kubectl apply -f: %v":                                        "kubectl apply -f 失败：%v",
	"kubectl auth can-i %s %s -n %s -> %s":                        "kubectl auth can-i %s %s -n %s -> %s（询问授权）",
	"kubectl auth can-i %s %s -n %s%s -> %s":                      "kubectl auth can-i %s %s -n %s%s -> %s（以该身份询问授权）",
	"kubectl %s %s":                                               "执行 kubectl %s %s",
	"kubectl describe %s %s":                                      "执行 kubectl describe %s %s（查看对象详情）",
	"kubectl drain %s --ignore-daemonsets":                        "执行 kubectl drain %s --ignore-daemonsets",
	"kubectl rollout undo deployment/%s":                          "执行 kubectl rollout undo deployment/%s（回滚到上一个版本）",
	"kubectl rollout undo deployment/%s --to-revision=%d":         "执行 kubectl rollout undo deployment/%s --to-revision=%d（回滚到指定版本）",
	"kubectl set image deployment/%s %s=%s":                       "执行 kubectl set image deployment/%s %s=%s",
	"error when evicting pods/%q -n %q (will retry after %s): %v": "error when evicting pods/%q -n %q (will retry after %s): %v（驱逐被拒，稍后重试）",
	"evicting pod %s/%s":                                          "正在驱逐 Pod %s/%s",
	"ignoring DaemonSet-managed pod %s/%s":                        "跳过 DaemonSet 管理的 Pod %s/%s",
	"Warning: %s":                                                 "警告：%s",
}

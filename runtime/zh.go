// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package fakeruntime

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"started sandbox %s (%s) for pod %s/%s, attempt %d, IP %s":                                                                "启动了沙箱 %s（%s，即 pause 容器），属于 Pod %s/%s，第 %d 次尝试，分配 IP %s",
	"started sandbox %s (%s) for pod %s/%s, attempt %d, in the node's network namespace (hostNetwork: no CNI ADD, no pod IP)": "启动了沙箱 %s（%s，即 pause 容器），属于 Pod %s/%s，第 %d 次尝试，使用节点的网络命名空间（hostNetwork：不调用 CNI ADD，没有 Pod IP）",
	"stopped sandbox %s": "停止了沙箱 %s",
	"removed sandbox %s (host network: no IP to release)":                                             "删除了沙箱 %s（主机网络：没有要释放的 IP）",
	"removed sandbox %s, released IP %s":                                                              "删除了沙箱 %s，释放 IP %s",
	"pulled %s (%s, %d bytes) in %s":                                                                  "拉取了镜像 %s（%s，%d 字节），耗时 %s",
	"pull %s failed after %s: %v":                                                                     "拉取镜像 %s 失败（耗时 %s）：%v",
	"removed image %s (%d bytes freed)":                                                               "删除了镜像 %s（释放 %d 字节）",
	"created container %s (%s) from %s":                                                               "创建了容器 %s（%s），镜像 %s",
	"started container %s (%s), restart count %d":                                                     "启动了容器 %s（%s），restartCount %d",
	"container %s failed to start: %s":                                                                "容器 %s 启动失败：%s",
	"container %s exited with code %d (%s)":                                                           "容器 %s 退出，退出码 %d（%s）",
	"container %s exited on SIGTERM with code 0":                                                      "容器 %s 收到 SIGTERM 后退出，退出码 0",
	"container %s ignores SIGTERM (a shell as PID 1 has no handler): SIGKILL in %s":                   "容器 %s 忽略了 SIGTERM（作为 PID 1 的 shell 没有信号处理函数）：%s 后发送 SIGKILL",
	"container %s killed with SIGKILL: exit code 137":                                                 "容器 %s 被 SIGKILL 杀死：退出码 137",
	"removed container %s (%s)":                                                                       "删除了容器 %s（%s）",
	"node crashed: %d running containers lost (exit code 255, reason Unknown), %d sandboxes NOTREADY": "节点崩溃：%d 个运行中的容器丢失（退出码 255，reason Unknown），%d 个沙箱变为 NOTREADY",
	"runtime fault set to %s":                                                                         "容器运行时故障设置为：%s",
	"pod network configured: podCIDR %s, bridge cni0 at %s, pod IPs %s-%s (host-local IPAM)":          "Pod 网络配置好了：podCIDR %s，网桥 cni0 地址 %s，Pod IP 范围 %s-%s（host-local IPAM）",
	"CNI ADD for sandbox %s: eth0 gets %s/%d from podCIDR %s, default route via %s (cni0)":            "沙箱 %s 的 CNI ADD：eth0 得到 %s/%d（来自 podCIDR %s），默认路由经 %s（cni0）",
	"CNI DEL for sandbox %s: released %s":                                                             "沙箱 %s 的 CNI DEL：释放 %s",
}

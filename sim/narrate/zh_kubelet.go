// zh_kubelet.go: the Chinese telling of the kubelet's trace lines (package kubelet).
package narrate

func init() {
	for k, v := range map[string]string{
		// node registration, Lease, node status
		"registered node %s: capacity cpu %s, memory %s, pods %s; allocatable cpu %s, memory %s; podCIDR %s":  "注册节点 %s：容量 cpu %s、内存 %s、pods %s；可分配 cpu %s、内存 %s；podCIDR %s",
		"Unable to register node with API server: %v (retrying in %s)":                                        "Unable to register node with API server: %v（%s 后重试）",
		"created Lease %s/%s (holder %s, leaseDurationSeconds %d): the node's heartbeat":                      "创建 Lease %s/%s（holder %s，leaseDurationSeconds %d）：这就是节点的心跳",
		"renewed Lease %s/%s: renewTime %s":                                                                   "续约 Lease %s/%s：renewTime %s",
		"failed to renew lease: %v":                                                                           "failed to renew lease: %v（控制面听不到这个节点的心跳了）",
		"renewed the Lease again after failures (%s)":                                                         "失败之后重新续约上了 Lease（之前的错误：%s）",
		"node status: Ready=%s (%s) -> %s":                                                                    "节点状态：Ready=%s（%s）-> %s",
		"Error updating node status, will retry: %v":                                                          "Error updating node status, will retry: %v（更新节点状态失败，稍后重试）",
		"added taint %s:NoSchedule: MemoryPressure, no new pods here":                                         "加上污点 %s:NoSchedule：内存压力，新 Pod 别再往这儿调度",
		"removed taint %s:NoSchedule: MemoryPressure is over":                                                 "去掉污点 %s:NoSchedule：内存压力解除",
		"could not update taint %s: %v":                                                                       "无法更新污点 %s：%v",
		"kubelet on %s stopped: no more Lease renewals, status reports or pod syncs; containers keep running": "%s 上的 kubelet 停了：不再续约 Lease、不再上报状态、不再同步 Pod；容器照常运行",
		"kubelet on %s started again: renewing its Lease and syncing every pod":                               "%s 上的 kubelet 重新启动：续约 Lease，重新同步每个 Pod",
		// runtime health, PLEG, housekeeping
		"PLEG relist failed after %s: %v":                      "PLEG relist 在 %s 后失败：%v",
		"PLEG relist works again after %q":                     "PLEG relist 恢复正常（之前的错误：%q）",
		"container runtime is down: %s":                        "container runtime is down：%s",
		"container runtime is up again":                        "容器运行时恢复了",
		"removed sandbox %s of pod %s, which no longer exists": "删除 sandbox %s（Pod %s 已经不存在）",
		"%s probe of %s in %s: %s":                             "%s 探针（容器 %s，Pod %s）：%s",
		// pod sync
		"admitted pod %s (requests fit the node's allocatable)":                                "准入 Pod %s（requests 在节点的可分配资源之内）",
		"rejected pod %s: %s: %s":                                                              "拒绝 Pod %s：%s：%s",
		"RunPodSandbox for %s: sandbox %s (pause), attempt %d, pod IP %s":                      "为 %s 调用 RunPodSandbox：sandbox %s（pause 容器），attempt %d，Pod IP %s",
		"PullImage %q for container %s (imagePullPolicy %s)":                                   "拉取镜像 %q，给容器 %s 用（imagePullPolicy %s）",
		"pulled %q in %s (%d bytes)":                                                           "镜像 %q 拉取完成，用时 %s（%d 字节）",
		"pull of %q failed after %s: ErrImagePull, back-off %s":                                "镜像 %q 拉取失败（用时 %s）：ErrImagePull，退避 %s",
		"image %q in back-off (%s): ImagePullBackOff, next pull in %s":                         "镜像 %q 处于退避中（%s）：ImagePullBackOff，%s 后再拉",
		"image %q is not on the node and imagePullPolicy is Never: the container cannot start": "节点上没有镜像 %q，而 imagePullPolicy 是 Never：容器无法启动",
		"image %q cannot be inspected: %v":                                                     "无法检查镜像 %q：%v",
		"CreateContainer + StartContainer %s (%s, restart count %d): container %s":             "CreateContainer + StartContainer %s（%s，重启次数 %d）：容器 %s",
		"CreateContainer %s failed: %v":                                                        "CreateContainer %s 失败：%v",
		"StartContainer %s failed: %v":                                                         "StartContainer %s 失败：%v",
		"container %s exited (code %d, %s): CrashLoopBackOff, back-off %s, restart in %s":      "容器 %s 退出（退出码 %d，%s）：CrashLoopBackOff，退避 %s，%s 后重启",
		"container %s failed its %s probe (%s): stopped it; it restarts per restartPolicy %s":  "容器 %s 的 %s 探针失败（%s）：停掉它，按 restartPolicy %s 重启",
		"sync of %s failed: %v (retrying in %s)":                                               "同步 %s 失败：%v（%s 后重试）",
		"pod %s is %s: every container has finished and none will restart; sandbox stopped":    "Pod %s 已是 %s：所有容器都结束了且不会重启；sandbox 已停止",
		"pod %s is gone from the apiserver: killed its containers and removed its sandbox":     "Pod %s 已从 apiserver 消失：杀掉它的容器并删除 sandbox",
		// termination
		"StopContainer %s (grace period %ds)": "StopContainer %s（宽限期 %d 秒）",
		"StopPodSandbox %s":                   "StopPodSandbox %s",
		"RemovePodSandbox %s: IP released":    "RemovePodSandbox %s：释放 IP",
		"pod %s stopped (grace period %ds): containers and sandbox gone; final status next, then delete": "Pod %s 已停止（宽限期 %d 秒）：容器和 sandbox 都没了；接下来写最终状态，然后删除",
		"deleted pod %s with grace period 0: the apiserver removes it now":                               "以宽限期 0 删除 Pod %s：apiserver 这才真正把它删掉",
		"could not delete pod %s with grace period 0, will retry: %v":                                    "无法以宽限期 0 删除 Pod %s，稍后重试：%v",
		// status manager
		"status of %s: %s -> pods/status":                       "%s 的状态：%s -> 写入 pods/status",
		"could not write the status of %s, will retry: %v":      "无法写入 %s 的状态，稍后重试：%v",
		"the status of %s is written again after failures (%s)": "%s 的状态在失败之后重新写入成功（之前的错误：%s）",
		// eviction
		"memory.available %s is below the hard eviction threshold %s: evicting a pod": "memory.available %s 低于硬驱逐阈值 %s：驱逐一个 Pod",
		"no pod can be evicted to reclaim memory":                                     "没有可以驱逐来回收内存的 Pod",
		"evicted pod %s (QoS %s, using %s of memory, requested %s): %s":               "驱逐 Pod %s（QoS %s，内存用了 %s，requests %s）：%s",
	} {
		ZH[k] = v
	}
}

// zh_scheduling.go: the Chinese telling of the scheduling scenarios' step headings
// (insufficient-resources, taints, node-selector-affinity, pod-anti-affinity, topology-spread,
// host-port, no-requests, custom-scheduler, explain, preemption). Kubernetes' own terms and messages
// stay untranslated; the explanation tables keep the scheduler's English.
package sim

import "kubesim/sim/narrate"

func init() {
	for en, zh := range map[string]string{
		// shared by the scenarios that ask the scheduler to explain itself
		"%d. kube-scheduler starts; the scenario keeps a handle on it to ask it to explain its decisions": "%d. kube-scheduler 启动；场景保留它的句柄，以便请它解释自己的决定",
		// insufficient-resources
		"%d. kubectl apply -f batch.yaml: 3 pods requesting 3 CPUs each, one per node; they run for 10 seconds": "%d. kubectl apply -f batch.yaml：3 个 Pod，每个 requests 3 个 CPU，每个节点一个；让它们运行 10 秒",
		"%d. kubectl apply -f big.yaml: a pod requesting 2 CPUs":                                                "%d. kubectl apply -f big.yaml：一个 requests 2 个 CPU 的 Pod",
		"%d. A minute later it is still Pending: nothing has changed that could make it fit":                    "%d. 一分钟后它仍是 Pending：没有发生任何能让它放得下的变化",
		"%d. kubectl scale deployment batch --replicas=2: one batch pod goes, and its node has room":            "%d. kubectl scale deployment batch --replicas=2：删掉一个 batch Pod，它所在的节点腾出了空间",
		// taints
		"%d. kubectl apply -f web.yaml: 4 ordinary pods, with no tolerations":                                         "%d. kubectl apply -f web.yaml：4 个普通 Pod，没有任何 toleration",
		"%d. kubectl apply -f trainer.yaml: a GPU job that selects accelerator=nvidia but forgot the toleration":      "%d. kubectl apply -f trainer.yaml：一个 GPU 任务，选择了 accelerator=nvidia，却忘了加 toleration",
		"%d. kubectl delete pod trainer, then apply it again with a toleration for nvidia.com/gpu=present:NoSchedule": "%d. kubectl delete pod trainer，然后带上 nvidia.com/gpu=present:NoSchedule 的 toleration 重新 apply",
		"%d. kubectl apply -f log-agent.yaml: 3 pods that tolerate the control-plane taint and select no node":        "%d. kubectl apply -f log-agent.yaml：3 个容忍 control-plane taint、但不指定节点的 Pod",
		// node-selector-affinity
		"%d. kubectl apply -f db.yaml: nodeSelector disktype=ssd; the scheduler explains, then decides":       "%d. kubectl apply -f db.yaml：nodeSelector disktype=ssd；调度器先解释，再决定",
		"%d. kubectl apply -f cache.yaml: requires disktype In [ssd], prefers zone-b (weight 80)":             "%d. kubectl apply -f cache.yaml：必须 disktype In [ssd]，偏好 zone-b（weight 80）",
		"%d. kubectl apply -f report.yaml: prefers zone-x, where no node is: a preference, not a requirement": "%d. kubectl apply -f report.yaml：偏好没有任何节点的 zone-x：这是偏好，不是要求",
		// pod-anti-affinity
		"%d. kubectl apply -f web-ha.yaml: 4 replicas with required anti-affinity on kubernetes.io/hostname, 3 nodes": "%d. kubectl apply -f web-ha.yaml：4 个副本，在 kubernetes.io/hostname 上有 required anti-affinity，只有 3 个节点",
		"%d. Time passes: nothing changes for it (it waits in unschedulablePods for a node or a replica to go)":       "%d. 时间流逝：它的处境没有变化（它在 unschedulablePods 里等待新节点或某个副本离开）",
		"%d. kubectl apply -f web-soft.yaml: 4 replicas with preferred anti-affinity (weight 100) instead":            "%d. kubectl apply -f web-soft.yaml：改用 preferred anti-affinity（weight 100）的 4 个副本",
		// topology-spread
		"%d. kubectl apply -f spread.yaml: 6 replicas, maxSkew 1 across topology.kubernetes.io/zone": "%d. kubectl apply -f spread.yaml：6 个副本，按 topology.kubernetes.io/zone 分布，maxSkew 1",
		"%d. kubectl cordon node-2 and node-3, then kubectl scale deployment spread --replicas=8":    "%d. kubectl cordon node-2 和 node-3，然后 kubectl scale deployment spread --replicas=8",
		"%d. kubectl uncordon node-2: zone-b takes pods again":                                       "%d. kubectl uncordon node-2：zone-b 又能接收 Pod 了",
		// host-port
		"%d. kubectl apply -f proxy-a.yaml: hostPort 8080":                                                            "%d. kubectl apply -f proxy-a.yaml：要占用节点的 hostPort 8080",
		"%d. kubectl apply -f proxy-b.yaml: hostPort 8080 too; the scheduler explains, then decides":                  "%d. kubectl apply -f proxy-b.yaml：同样要 hostPort 8080；调度器先解释，再决定",
		"%d. kubectl apply -f proxy-c.yaml and proxy-d.yaml: a third takes the last free 8080, a fourth fits nowhere": "%d. kubectl apply -f proxy-c.yaml 和 proxy-d.yaml：第三个占用最后一个空闲的 8080，第四个哪里都放不下",
		// no-requests
		"%d. kubectl apply -f leaky.yaml: no requests, and its memory grows 50Mi a second":                         "%d. kubectl apply -f leaky.yaml：没有 requests，内存每秒增长 50Mi",
		"%d. Let 20 seconds pass: leaky now uses about a gigabyte on its node":                                     "%d. 过 20 秒：leaky 在它的节点上已经用了大约 1GiB 内存",
		"%d. kubectl apply -f crowd.yaml: 20 replicas, no requests, onto two nodes with 900m CPU allocatable each": "%d. kubectl apply -f crowd.yaml：20 个没有 requests 的副本，放到两个各有 900m 可分配 CPU 的节点上",
		"%d. What kubectl describe node shows, against what the nodes really use":                                  "%d. kubectl describe node 显示的，与节点实际使用的对比",
		// custom-scheduler
		"%d. kubectl apply -f special.yaml: schedulerName my-scheduler, which nobody runs":                               "%d. kubectl apply -f special.yaml：schedulerName 是 my-scheduler，但没有人运行它",
		"%d. A minute passes: kube-scheduler (profile default-scheduler) leaves the pod alone":                           "%d. 过了一分钟：kube-scheduler（profile default-scheduler）根本不理这个 Pod",
		"%d. Start a second scheduler with a profile named my-scheduler (the default plugins), leading on its own Lease": "%d. 启动第二个调度器，profile 名为 my-scheduler（默认插件），用它自己的 Lease 做选主",
		// explain
		"%d. kubectl apply -f setup.yaml: busy takes 1500m of node-1's 1900m, frontend 500m of node-2's":       "%d. kubectl apply -f setup.yaml：busy 占用 node-1 的 1900m 中的 1500m，frontend 占用 node-2 的 500m",
		"%d. kubectl apply -f web.yaml (1 CPU, prefers disktype=ssd), and kubesim explain pod default/web":     "%d. kubectl apply -f web.yaml（1 个 CPU，偏好 disktype=ssd），然后 kubesim explain pod default/web",
		"%d. Now the scheduler runs its cycle for web":                                                         "%d. 现在调度器为 web 运行它的调度周期",
		"%d. kubectl apply -f huge.yaml (5 CPUs, more than any node has) and kubesim explain pod default/huge": "%d. kubectl apply -f huge.yaml（5 个 CPU，比任何节点都多），然后 kubesim explain pod default/huge",
		// preemption
		"%d. kubectl create priorityclass high-priority --value=1000000":                                   "%d. kubectl create priorityclass high-priority --value=1000000（创建一个高优先级的 PriorityClass）",
		"%d. kubectl apply -f low.yaml: 3 pods of priority 0 take 3 CPUs on each node":                     "%d. kubectl apply -f low.yaml：3 个优先级为 0 的 Pod，在每个节点上各占 3 个 CPU",
		"%d. kubectl apply -f urgent.yaml: 3 CPUs at priority high-priority":                               "%d. kubectl apply -f urgent.yaml：以 high-priority 优先级申请 3 个 CPU",
		"%d. The victim terminates; the room it leaves is kept for urgent, which is bound on the next try": "%d. 牺牲者终止；它腾出的空间为 urgent 保留，urgent 在下一次尝试时被绑定",
		"%d. The ReplicaSet replaces its victim; the replacement has lower priority and waits":             "%d. ReplicaSet 补上被牺牲的 Pod；替补优先级更低，只能等待",
	} {
		narrate.ZH[en] = zh
	}
}

// zh_quota.go: the Chinese telling of the quota scenario's step headings (see sim/zh.go and
// sim/narrate/zh.go). Kubernetes' own terms and messages stay in English.
package sim

import "kubesim/sim/narrate"

func init() {
	for en, zh := range map[string]string{
		"%d. kubectl create namespace team; the serviceaccount controller gives it a default ServiceAccount":                                 "%d. kubectl create namespace team；serviceaccount 控制器为它创建 default ServiceAccount",
		"%d. kubectl create quota compute-resources -n team --hard=pods=3,requests.cpu=1,requests.memory=1Gi,limits.cpu=2,limits.memory=2Gi": "%d. kubectl create quota compute-resources -n team --hard=pods=3,requests.cpu=1,requests.memory=1Gi,limits.cpu=2,limits.memory=2Gi",
		"%d. kubectl apply a Deployment web of 5 replicas in team: the ReplicaSet creates 3 pods, the 4th is refused":                        "%d. 在 team 中 kubectl apply 一个 5 副本的 Deployment web：ReplicaSet 建出 3 个 Pod，第 4 个被拒绝",
		"%d. Let a minute pass: the ReplicaSet keeps retrying with backoff, and the quota holds it at 3":                                     "%d. 让一分钟过去：ReplicaSet 带退避不断重试，配额把它卡在 3 个",
		"%d. kubectl run two pods by hand: one more sized pod, and one with no requests or limits":                                           "%d. 手工 kubectl run 两个 Pod：一个写了 requests/limits，一个什么都没写",
		"%d. kubectl edit quota compute-resources -n team: hard pods 5; the ReplicaSet's next retry creates the last 2":                      "%d. kubectl edit quota compute-resources -n team：hard pods 改为 5；ReplicaSet 下一次重试建出剩下的 2 个",
	} {
		narrate.ZH[en] = zh
	}
}

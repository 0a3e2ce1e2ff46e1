// delete_cascade.go: delete-cascade (article 2, section 3.3): deleting a Deployment removes its
// ReplicaSets and Pods, not because the apiserver deletes them, but because the garbage collector sees
// that their owner (metadata.ownerReferences) is gone. With propagationPolicy Orphan it instead cuts
// the references and leaves the dependents running.
package scenarios

import (
	"context"
	"strings"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
	"kubesim/wire"
)

func init() {
	register(sim.Scenario{
		Name:    "delete-cascade",
		Summary: "delete the nginx Deployment: the garbage collector removes its ReplicaSet and Pods; with Orphan they stay",
		Teaches: `Every ReplicaSet a Deployment makes carries an ownerReference to it (controller: true), and every Pod
one to its ReplicaSet. kubectl delete deployment nginx (propagationPolicy Background, kubectl's default)
removes only the Deployment from etcd. The garbage collector in kube-controller-manager watches
Deployments, ReplicaSets and Pods, notices that the ReplicaSet's owner no longer exists (it checks with a
live GET, never trusting its cache for a deletion) and deletes the ReplicaSet; then, the same way, its
Pods, which the kubelets stop gracefully. kubectl delete --cascade=orphan (propagationPolicy Orphan)
instead gives the Deployment the finalizer "orphan": the garbage collector removes the Deployment's
ownerReference from each ReplicaSet, then the finalizer, and the Deployment goes while the ReplicaSet and
its Pods keep running.

Signs to look for: the garbage collector's lines "owner ... is gone" for the ReplicaSet, then for each
Pod; kubectl get rs,pods empty at the end of part 1; in part 2 the Deployment gone, its ReplicaSet and 3
Pods still there, the ReplicaSet without ownerReferences, the Pods still owned by the ReplicaSet.`,
		SummaryZH: "删除 nginx Deployment：垃圾回收器删掉它的 ReplicaSet 和 Pod；用 Orphan 时它们留下",
		TeachesZH: `Deployment 创建的每个 ReplicaSet 都带有指向它的 ownerReference（controller: true），每个 Pod 也带有
指向其 ReplicaSet 的 ownerReference。kubectl delete deployment nginx（propagationPolicy Background，
kubectl 的默认值）只从 etcd 删除 Deployment。kube-controller-manager 里的垃圾回收器 watch 着
Deployment、ReplicaSet 和 Pod，发现 ReplicaSet 的属主已不存在（它用一次实时 GET 核实，删除这件事从不
相信缓存），就删除这个 ReplicaSet；然后用同样的方式删除它的 Pod，由 kubelet 优雅地停止。kubectl
delete --cascade=orphan（propagationPolicy Orphan）则给 Deployment 加上 finalizer "orphan"：垃圾回收
器从每个 ReplicaSet 上移除 Deployment 的 ownerReference，再移除这个 finalizer，Deployment 消失，而
ReplicaSet 和它的 Pod 继续运行。

要看的信号：垃圾回收器针对 ReplicaSet、随后针对每个 Pod 的 "owner ... is gone" 日志行；第一部分结束
时 kubectl get rs,pods 为空；第二部分中 Deployment 没了，它的 ReplicaSet 和 3 个 Pod 还在，
ReplicaSet 没有 ownerReferences，Pod 仍归 ReplicaSet 所有。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl delete deployment nginx (propagationPolicy Background): only the Deployment is deleted": "%d. kubectl delete deployment nginx（propagationPolicy Background）：只删除了 Deployment 本身",
			"%d. The garbage collector finds owners gone: first the ReplicaSet goes, then its Pods":              "%d. 垃圾回收器发现属主不在了：先删 ReplicaSet，再删它的 Pod",
			"%d. Part 2: apply the Deployment again and wait until 3/3 pods are available":                       "%d. 第二部分：重新 apply 这个 Deployment，等到 3/3 个 Pod 可用",
			"%d. kubectl delete deployment nginx --cascade=orphan (propagationPolicy Orphan)":                    "%d. 执行 kubectl delete deployment nginx --cascade=orphan（propagationPolicy Orphan：留下孤儿）",
			"%d. The garbage collector orphans the ReplicaSet, then removes the finalizer; the Deployment goes":  "%d. 垃圾回收器把 ReplicaSet 变成孤儿，再去掉 finalizer；Deployment 随之消失",
			"%s ReplicaSet %s has an ownerReference to Deployment nginx (controller: true)":                      "%s ReplicaSet %s 有一个指向 Deployment nginx 的 ownerReference（controller: true）",
			"%s each of its 3 Pods has an ownerReference to ReplicaSet %s":                                       "%s 它的 3 个 Pod 都有指向 ReplicaSet %s 的 ownerReference",
			"%s its ReplicaSet and 3 Pods are still there: nobody has acted yet":                                 "%s 它的 ReplicaSet 和 3 个 Pod 还在：还没有谁动手",
			"%s kubectl get pods: the same 3 Pods keep running, still owned by their ReplicaSet: %s":             "%s kubectl get pods：同样的 3 个 Pod 继续运行，仍属于它们的 ReplicaSet：%s",
			"%s kubectl get rs,pods -l app=nginx: No resources found in default namespace.":                      "%s kubectl get rs,pods -l app=nginx：No resources found in default namespace.（全部删除了）",
			"%s kubectl get rs: the ReplicaSet %s stays, with no ownerReferences (an orphan)":                    "%s kubectl get rs：ReplicaSet %s 留了下来，没有 ownerReferences（成了孤儿）",
			"%s the Deployment is gone at once":                                                                  "%s Deployment 立刻消失",
			"%s the Deployment is not gone yet: it has a deletionTimestamp and the finalizer orphan":             "%s Deployment 还没消失：它有 deletionTimestamp 和 finalizer orphan",
			"%s the kubelets stopped the 3 containers (event Killing)":                                           "%s kubelet 停掉了 3 个容器（事件 Killing）",
		},
		Run: runDeleteCascade,
	})
}

func runDeleteCascade(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	if !expectOwnerChain(ctx, s) {
		return s.Err()
	}

	s.Step("kubectl delete deployment nginx (propagationPolicy Background): only the Deployment is deleted")
	if err := s.Kubectl.Delete(ctx, "deployments", "default", "nginx", client.DeleteOptions{PropagationPolicy: wire.PropagationBackground}); err != nil {
		s.Expect(false, "the Deployment is deleted: %v", err)
		return s.Err()
	}
	s.Expect(objectNow[api.Deployment](ctx, s, "default", "nginx") == nil, "the Deployment is gone at once")
	// Only step mode can show the instant after the delete: in real time the garbage collector may
	// already be at work by the time anyone looks.
	if s.Config.Mode == sim.StepMode {
		rss, _ := replicaSetsOf(ctx, s, "nginx-")
		pods, _ := livePods(ctx, s, "app=nginx")
		s.Expect(len(rss) == 1 && len(pods) == 3, "its ReplicaSet and 3 Pods are still there: nobody has acted yet")
	}

	s.Step("The garbage collector finds owners gone: first the ReplicaSet goes, then its Pods")
	if !until(ctx, s, 0, "replicasets nginx-* gone", "pods -l app=nginx gone") {
		return s.Err()
	}
	rss, _ := replicaSetsOf(ctx, s, "nginx-")
	all, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=nginx", "")
	s.Expect(err == nil && len(rss) == 0 && len(all) == 0, "kubectl get rs,pods -l app=nginx: No resources found in default namespace.")
	killed := 0
	settled(ctx, s, func() bool { // the kubelets' events may trail the pods' deletion
		killed = sim.CountEvents(objectsNow[api.Event](ctx, s, "default", ""), "Killing", "Stopping container nginx")
		return killed == 3
	})
	s.Expect(killed == 3, "the kubelets stopped the 3 containers (event Killing)")

	s.Step("Part 2: apply the Deployment again and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	before, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}

	s.Step("kubectl delete deployment nginx --cascade=orphan (propagationPolicy Orphan)")
	if err := s.Kubectl.Delete(ctx, "deployments", "default", "nginx", client.DeleteOptions{PropagationPolicy: wire.PropagationOrphan}); err != nil {
		s.Expect(false, "the Deployment is deleted: %v", err)
		return s.Err()
	}
	d := objectNow[api.Deployment](ctx, s, "default", "nginx")
	s.Expect(d != nil && d.DeletionTimestamp != nil && d.HasFinalizer("orphan"),
		"the Deployment is not gone yet: it has a deletionTimestamp and the finalizer orphan")

	s.Step("The garbage collector orphans the ReplicaSet, then removes the finalizer; the Deployment goes")
	if !until(ctx, s, 0, "deployments nginx gone") {
		return s.Err()
	}
	// Let any late work finish, so that a wrongful delete would have happened by now.
	if err := s.Driver.Advance(ctx, 0); err != nil {
		return err
	}
	rss, err = replicaSetsOf(ctx, s, "nginx-")
	if err != nil {
		return err
	}
	after, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	s.Expect(len(rss) == 1 && len(rss[0].OwnerReferences) == 0,
		"kubectl get rs: the ReplicaSet %s stays, with no ownerReferences (an orphan)", replicaSetNames(rss))
	same := len(after) == len(before)
	for _, p := range after {
		ref := p.ControllerRef()
		same = same && containsPod(before, p.Name) && p.Status.Phase == api.PodRunning && ref != nil && ref.Kind == "ReplicaSet"
	}
	s.Expect(same, "kubectl get pods: the same 3 Pods keep running, still owned by their ReplicaSet: %s", podNames(after))
	return s.Err()
}

// expectOwnerChain checks the ownerReferences that connect the nginx Deployment, its ReplicaSet and
// their Pods.
func expectOwnerChain(ctx context.Context, s *sim.Session) bool {
	d := objectNow[api.Deployment](ctx, s, "default", "nginx")
	rss, err1 := replicaSetsOf(ctx, s, "nginx-")
	pods, err2 := livePods(ctx, s, "app=nginx")
	if d == nil || err1 != nil || err2 != nil || len(rss) != 1 {
		s.Expect(false, "the Deployment, one ReplicaSet and its Pods exist")
		return false
	}
	ref := rss[0].ControllerRef()
	s.Expect(ref != nil && ref.Kind == "Deployment" && ref.UID == d.UID,
		"ReplicaSet %s has an ownerReference to Deployment nginx (controller: true)", rss[0].Name)
	owned := len(pods) == 3
	for _, p := range pods {
		ref := p.ControllerRef()
		owned = owned && ref != nil && ref.Kind == "ReplicaSet" && ref.UID == rss[0].UID
	}
	s.Expect(owned, "each of its 3 Pods has an ownerReference to ReplicaSet %s", rss[0].Name)
	return true
}

// replicaSetNames lists the ReplicaSets' names, or says there are none.
func replicaSetNames(rss []*api.ReplicaSet) string {
	if len(rss) == 0 {
		return "(none)"
	}
	names := make([]string, len(rss))
	for i, rs := range rss {
		names[i] = rs.Name
	}
	return strings.Join(names, ", ")
}

// conflict.go: conflict (article 2, section 2.3): optimistic concurrency. Two writers read the
// same Deployment at the same resourceVersion and both update it. etcd's compare-and-swap lets the
// first win; the second gets 409 Conflict and must read again, reapply its change and retry, which
// keeps both changes instead of silently losing one.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "conflict",
		Summary: "two writers update the nginx Deployment from the same resourceVersion: 409 for the second, a retry on a fresh read succeeds",
		Teaches: `Kubernetes takes no locks. Every object carries a resourceVersion (the etcd revision of its last
write), and an update must send the resourceVersion it read; the apiserver writes with a compare-and-swap
on it. If someone wrote in between, the versions differ and the answer is 409 Conflict: "the object has
been modified; please apply your changes to the latest version and try again". The loser reads the
object again, applies its change to the fresh copy and retries (client-go's RetryOnConflict does exactly
this). Nothing is lost: the final object carries both writers' changes.

Signs to look for: both writers reading the same resourceVersion; the first update moving it on; 'Operation
cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes
to the latest version and try again'; the retry succeeding; the Deployment with replicas 4 AND image
nginx:1.27.`,
		SummaryZH: "两个写者基于同一个 resourceVersion 更新 nginx Deployment：第二个得到 409，重新读取后重试成功",
		TeachesZH: `Kubernetes 不加锁。每个对象都带一个 resourceVersion（它最后一次写入时 etcd 的 revision），更新时必须
带上读到的 resourceVersion；apiserver 以它为条件做 compare-and-swap 写入。如果中间有人写过，版本就对
不上，回答是 409 Conflict："the object has been modified; please apply your changes to the latest
version and try again"。输的一方重新读取对象，把改动应用到新副本上再重试（client-go 的
RetryOnConflict 正是这么做的）。什么都不会丢：最终的对象包含两个写者的改动。

要看的信号：两个写者读到同一个 resourceVersion；第一次更新让它前进；'Operation cannot be fulfilled
on deployments.apps "nginx": the object has been modified; please apply your changes to the latest
version and try again'；重试成功；Deployment 的 replicas 为 4，同时 image 为 nginx:1.27。`,
		Verbose: true,
		ZH: catalog{
			"%d. kubectl apply -f nginx-deployment.yaml":                                                         "%d. 执行 kubectl apply -f nginx-deployment.yaml",
			"%d. Two writers read the Deployment: both see the same resourceVersion":                             "%d. 两个写者读取 Deployment：看到同一个 resourceVersion",
			"%d. Writer 1 sets replicas to 4 and updates: the compare-and-swap succeeds":                         "%d. 写者 1 把 replicas 改成 4 并更新：compare-and-swap 成功",
			"%d. Writer 2 sets the image to nginx:1.27 and updates with resourceVersion %s: 409 Conflict":        "%d. 写者 2 把镜像改成 nginx:1.27，带着 resourceVersion %s 更新：409 Conflict",
			"%d. Writer 2 reads again, reapplies its change to the fresh copy and retries":                       "%d. 写者 2 重新读取，把修改应用到最新副本上再试一次",
			"%s both hold resourceVersion %s":                                                                    "%s 两者手里都是 resourceVersion %s",
			"%s kubectl get deployment nginx: replicas 4 and image nginx:1.27: neither writer's change was lost": "%s kubectl get deployment nginx：replicas 4，镜像 nginx:1.27：两个写者的修改都没有丢",
			"%s the Deployment's resourceVersion moves from %s to %s":                                            "%s Deployment 的 resourceVersion 从 %s 变为 %s",
			"%s writer 1's update succeeds":                                                                      "%s 写者 1 的更新成功",
			"%s writer 2's retry from resourceVersion %s succeeds":                                               "%s 写者 2 基于 resourceVersion %s 重试，成功",
		},
		Run: runConflict,
	})
}

func runConflict(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl
	s.Step("kubectl apply -f nginx-deployment.yaml")
	if !apply(ctx, s, manifests.NginxDeployment) {
		return s.Err()
	}

	s.Step("Two writers read the Deployment: both see the same resourceVersion")
	a, errA := k.Get(ctx, "deployments", "default", "nginx")
	b, errB := k.Get(ctx, "deployments", "default", "nginx")
	if errA != nil || errB != nil {
		s.Expect(false, "both writers read the Deployment")
		return s.Err()
	}
	first, second := a.(*api.Deployment), b.(*api.Deployment)
	read := first.ResourceVersion
	s.Expect(read == second.ResourceVersion, "both hold resourceVersion %s", read)

	s.Step("Writer 1 sets replicas to 4 and updates: the compare-and-swap succeeds")
	first.Spec.Replicas = api.Ptr(int32(4))
	written, err := k.Update(ctx, first)
	s.Expect(err == nil, "writer 1's update succeeds")
	if err != nil {
		return s.Err()
	}
	s.Expect(written.GetObjectMeta().ResourceVersion != read, "the Deployment's resourceVersion moves from %s to %s",
		read, written.GetObjectMeta().ResourceVersion)

	s.Step("Writer 2 sets the image to nginx:1.27 and updates with resourceVersion %s: 409 Conflict", read)
	second.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
	_, err = k.Update(ctx, second)
	s.ExpectError(err, 409, `Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again`)

	s.Step("Writer 2 reads again, reapplies its change to the fresh copy and retries")
	fresh, err := k.Get(ctx, "deployments", "default", "nginx")
	if err != nil {
		s.Expect(false, "writer 2 reads the Deployment again: %v", err)
		return s.Err()
	}
	retry := fresh.(*api.Deployment)
	retry.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
	_, err = k.Update(ctx, retry)
	s.Expect(err == nil, "writer 2's retry from resourceVersion %s succeeds", retry.ResourceVersion)

	d := objectNow[api.Deployment](ctx, s, "default", "nginx")
	s.Expect(d != nil && *d.Spec.Replicas == 4 && d.Spec.Template.Spec.Containers[0].Image == "nginx:1.27",
		"kubectl get deployment nginx: replicas 4 and image nginx:1.27: neither writer's change was lost")
	return s.Err()
}

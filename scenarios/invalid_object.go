// invalid_object.go: invalid-object (article 1, section 2.1): the validation gate. A Deployment
// with a bad name, negative replicas and a container without an image is refused with 422 Invalid and
// one cause per offending field path, and a manifest with a misspelt field is refused before it is even
// a request: strict decoding answers 400. Nothing reaches etcd.
package scenarios

import (
	"context"
	"sort"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "invalid-object",
		Summary: "a bad name, a missing image, negative replicas (422 Invalid, one cause per field) and an unknown field (400)",
		Teaches: `After authentication, authorization and mutating admission (which fills in defaults), the apiserver
validates the object against its type's rules: a name must be a DNS-1123 subdomain (lower case, digits,
'-' and '.'), replicas must not be negative, every container needs an image. Every violation is
collected, not just the first, and returned together as 422 Invalid with one cause per field path, so a
learner fixes them all at once. Before that, the manifest is decoded strictly: a field the type does not
have (a typo such as "replica") is an error naming its path, never silently dropped; kubectl reports it
as a 400 Bad Request. Either way nothing is written.

Signs to look for: 'Deployment.apps "Nginx_Web" is invalid' with the causes metadata.name, spec.replicas
and spec.template.spec.containers[0].image, each once; 'strict decoding error: unknown field
"spec.replica"'; etcd's revision unchanged; the corrected manifest created.`,
		SummaryZH: "错误的名字、缺少镜像、负数副本（422 Invalid，每个字段一条原因），以及一个未知字段（400）",
		TeachesZH: `经过认证、授权和变更型准入控制（填默认值）之后，apiserver 按对象类型的规则校验对象：名字必须是
DNS-1123 子域名（小写字母、数字、'-' 和 '.'），replicas 不能为负，每个容器都要有 image。所有违规都会
被收集，而不只是第一个，一起以 422 Invalid 返回，每个字段路径一条原因，让学习者一次改完。在此之前，
清单按严格模式解码：类型里没有的字段（比如拼错的 "replica"）是一个点出其路径的错误，绝不会被悄悄丢
掉；kubectl 把它报告为 400 Bad Request。无论哪种，都什么也不写入。

要看的信号：'Deployment.apps "Nginx_Web" is invalid'，原因包括 metadata.name、spec.replicas 和
spec.template.spec.containers[0].image，各出现一次；'strict decoding error: unknown field
"spec.replica"'；etcd 的 revision 不变；改正后的清单创建成功。`,
		Verbose: true,
		ZH: catalog{
			"%d. kubectl create a Deployment named Nginx_Web with replicas -1 and a container without an image": "%d. kubectl create 一个名为 Nginx_Web、replicas 为 -1、容器没有镜像的 Deployment",
			"%d. kubectl apply -f of a manifest that misspells replicas as replica":                             "%d. kubectl apply -f 一个把 replicas 拼成 replica 的清单",
			"%d. The corrected manifest passes every gate":                                                      "%d. 改正后的清单通过了所有关卡",
			"%s one cause per field path: %s":                                                                   "%s 每个字段路径一条 cause：%s",
			"%s deployment.apps/nginx created":                                                                  "%s deployment.apps/nginx 已创建",
			"%s it is written to etcd (revision %d)":                                                            "%s 它被写入 etcd（持久化，revision %d）",
		},
		Run: runInvalidObject,
	})
}

func runInvalidObject(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl
	s.Step("kubectl create a Deployment named Nginx_Web with replicas -1 and a container without an image")
	before := currentRevision(ctx, s)
	bad := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "Nginx_Web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Ptr(int32(-1)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web"}}}}}}
	_, err := k.Create(ctx, bad)
	s.ExpectError(err, 422, `Deployment.apps "Nginx_Web" is invalid`)
	fields := causeFields(err)
	s.Expect(strings.Join(fields, ", ") == "metadata.name, spec.replicas, spec.template.spec.containers[0].image",
		"one cause per field path: %s", strings.Join(fields, ", "))
	s.Expect(currentRevision(ctx, s) == before, "etcd's revision is still %d: nothing was written", before)

	s.Step("kubectl apply -f of a manifest that misspells replicas as replica")
	typo := strings.Replace(manifests.NginxDeployment, "  replicas: 3", "  replica: 3", 1)
	_, err = k.Apply(ctx, []byte(typo))
	s.ExpectError(err, 400, `strict decoding error: unknown field "spec.replica"`)
	s.Expect(currentRevision(ctx, s) == before, "etcd's revision is still %d: nothing was written", before)

	s.Step("The corrected manifest passes every gate")
	objs, err := k.Apply(ctx, []byte(manifests.NginxDeployment))
	s.Expect(err == nil && len(objs) == 1, "deployment.apps/nginx created")
	s.Expect(currentRevision(ctx, s) > before, "it is written to etcd (revision %d)", currentRevision(ctx, s))
	return s.Err()
}

// causeFields lists the field paths of a 422's causes, sorted, each as often as it appears.
func causeFields(err error) []string {
	se, ok := err.(*apierrors.StatusError)
	if !ok || se.ErrStatus.Details == nil {
		return nil
	}
	var out []string
	for _, c := range se.ErrStatus.Details.Causes {
		out = append(out, c.Field)
	}
	sort.Strings(out)
	return out
}

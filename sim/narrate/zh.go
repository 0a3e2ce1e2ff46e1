// zh.go: the Chinese telling (--lang zh), for the audience of the articles in shared/seeds. A message
// is translated by its format string, so the numbers and names in it stay exactly as in English;
// Kubernetes' own terms (Pod, ReplicaSet, resourceVersion) and its own messages (error text, event
// reasons) stay untranslated, as the articles keep them. A message with no entry here is shown in
// English.
package narrate

import (
	"fmt"

	"kubesim/trace"
)

var zhWords = map[string]string{
	"time":          "时间",
	"component":     "组件",
	"what happened": "发生了什么",
}

// zhFormats maps an English format string to its Chinese form with the same verbs in the same order.
var zhFormats = map[string]string{
	// kube-apiserver gates
	"bearer token -> %s":                  "bearer token 认证通过 -> %s",
	"%s: %s -> 401 Unauthorized":          "%s：%s -> 401 Unauthorized（认证失败，请求到此为止）",
	"%s -> 403 %s":                        "%s -> 403（授权失败）%s",
	"%s: %s":                              "%s：%s",
	"admission %s: %s":                    "准入插件 %s：%s",
	"admission plugin %s rejected %s: %s": "准入插件 %s 拒绝了 %s：%s",
	"%s -> 422 %s":                        "%s -> 422（校验失败）%s",
	"%s: valid":                           "%s：字段校验通过",
	"%s -> %d %s":                         "%s -> %d %s",
	"%s: passed every gate; dry run, nothing written to etcd":                                                  "%s：通过了所有关卡；这是 dry run，没有写入 etcd",
	"%s: marked for deletion (deletionTimestamp set, grace %ds, finalizers %v)":                                "%s：标记删除（设置 deletionTimestamp，宽限期 %d 秒，finalizers %v）",
	"compacted history up to revision %d: older resourceVersions are gone":                                     "压缩了 revision %d 之前的历史：更早的 resourceVersion 不复存在",
	"eviction of pod %s/%s allowed (no PodDisruptionBudget)":                                                   "允许驱逐 Pod %s/%s（没有 PodDisruptionBudget）",
	"created %d bootstrap objects: namespaces %v, RBAC roles and bindings for each component, PriorityClasses": "创建了 %d 个引导对象：命名空间 %v、各组件的 RBAC 角色与绑定、PriorityClass",
	// etcd
	"%s": "%s",
	// informers
	"%s: watch from resourceVersion %s answered 410 Gone (%s): listing everything again": "%s：从 resourceVersion %s 续 watch 得到 410 Gone（%s）：重新全量 list",
	// events
	"could not record event %s %s: %v": "无法记录事件 %s %s：%v",
}

// translate renders e in Chinese when its format has an entry.
func translate(e trace.Event) string {
	format, args := e.Format()
	if zh, ok := zhFormats[format]; ok {
		return fmt.Sprintf(zh, args...)
	}
	if zh, ok := ZH[format]; ok {
		return fmt.Sprintf(zh, args...)
	}
	return e.Message
}

// ZH lets other packages (the scenario catalogue) add their own Chinese formats at init time.
var ZH = map[string]string{}

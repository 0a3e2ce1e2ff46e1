// zh.go: the Chinese telling (--lang zh), for the audience of the articles in shared/seeds. A message
// is translated by its format string through the catalogue the caller passes in Options.Catalog (each
// package that records trace lines keeps its own, next to its formats, and the wiring merges them), so
// the numbers and names in it stay exactly as in English. Kubernetes' own terms (Pod, ReplicaSet,
// resourceVersion) and its own messages (error text, event messages) stay untranslated, as the
// articles keep them. A message whose format has no entry is shown in English.
package narrate

import (
	"fmt"

	"kubesim/trace"
)

// zhWords are the narrators' own words: the column heads of the text story, the action words that
// lead a line whose format has no words of its own (the apiserver's gates, named as the articles name
// them), and the writes to etcd in the diagram.
var zhWords = map[string]string{
	"time":          "时间",
	"component":     "组件",
	"what happened": "发生了什么",
	"authenticate":  "认证",
	"authorize":     "授权",
	"admit":         "准入控制",
	"validate":      "校验",
	"put":           "写入",
	"delete":        "删除",
}

// Sprintf formats a line in o's language: through o.Catalog for "zh", as in English otherwise (Play's
// header and verdict, which are not trace events).
func (o Options) Sprintf(format string, args ...any) string {
	if o.Lang != "zh" {
		return fmt.Sprintf(format, args...)
	}
	return translate(o.Catalog, trace.Event{}.Msgf(format, args...))
}

// translate renders e with the catalogue's telling of its format, or in English when c has none.
func translate(c trace.Catalog, e trace.Event) string {
	format, args := e.Format()
	if tr, ok := c[format]; ok {
		return fmt.Sprintf(tr, args...)
	}
	if e.Message == "" {
		return fmt.Sprintf(format, args...)
	}
	return e.Message
}

// zhStory translates the short story's own lines (short.go): its step headings and what it folded.
var zhStory = map[string]string{
	string(stepGates):      "kubectl 与 apiserver 的关卡：认证、授权、准入控制、校验",
	string(stepEtcd):       "etcd：对象被存储，它的 revision 成为它的 resourceVersion",
	string(stepDeployment): "Deployment 控制器（它的 informer 监听 Deployment 与 ReplicaSet）",
	string(stepReplicaSet): "ReplicaSet 控制器（它的 informer 监听 ReplicaSet 与 Pod）",
	string(stepScheduler):  "调度器（它监听没有 spec.nodeName 的 Pod）",
	string(stepKubelet):    "kubelet 与容器运行时（每个 kubelet 监听绑定到本节点的 Pod）",
	string(stepRollUp):     "状态逐级汇总：Pod -> ReplicaSet -> Deployment",
	" → etcd revision %s":  " → 写入 etcd，revision %s",
	" → etcd revisions %s": " → 写入 etcd，revisions %s",
	"… and the same for %d more: %s (--verbose tells them)": "……其余 %d 个同样如此：%s（--verbose 逐一讲述）",
	" (the last of %d status writes, etcd revision %s)":     "（%d 次状态写入中的最后一次，etcd revision %s）",
	"watch: %s bound to %s":                                 "watch：%s 已绑定到 %s",
	"✓ %d events, in order: %s":                             "✓ %d 个事件，依次为：%s",
	"%d nodes registered and Ready; %d leaders elected; etcd at revision %s (--verbose tells the start-up)": "%d 个节点已注册并 Ready；选出 %d 个 leader；etcd 位于 revision %s（--verbose 讲述启动过程）",
}

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

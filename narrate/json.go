// json.go: one JSON object per line, every event including details. The fields (seq, time,
// component, action, object, message, and where they apply actor, resourceVersion, code, detail) are
// a public contract: tools and tests read them.
package narrate

import (
	"encoding/json"
	"io"

	"kubesim/trace"
)

type jsonNarrator struct {
	w   io.Writer
	err error
}

func (n *jsonNarrator) Event(e trace.Event) {
	if n.err != nil {
		return
	}
	b, err := json.Marshal(e)
	if err == nil {
		b = append(b, '\n')
		_, err = n.w.Write(b)
	}
	n.err = err
}

func (n *jsonNarrator) Close() error { return n.err }

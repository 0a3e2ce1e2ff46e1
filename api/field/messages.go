// messages.go: the detail strings that validators share, worded as
// k8s.io/apimachinery/pkg/util/validation words them (EmptyError, MaxLenError, RegexError), so that a
// label key and a Service name fail with the same sentence a real apiserver writes.
package field

import (
	"fmt"
	"strings"
)

// EmptyError is the detail of a part that must not be empty.
const EmptyError = "must be non-empty"

// MaxLenError is the detail of a string longer than length.
func MaxLenError(length int) string {
	return fmt.Sprintf("must be no more than %d characters", length)
}

// RegexError words a pattern failure as Kubernetes does, examples included
// (the doubled spaces in "'MyName',  or" are Kubernetes' own).
func RegexError(msg, pattern string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, ex := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + ex + "', ")
	}
	b.WriteString("regex used for validation is '" + pattern + "')")
	return b.String()
}

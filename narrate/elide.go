// elide.go: a long name said once. An apiserver error repeats the name it refuses (`Pod "x" is
// invalid: metadata.name: Invalid value: "x"`), and the story repeats it on every line about the
// object: a word longer than a line is shown in full the first time and shortened after, so a
// 10,000-character name is printed once, not once per mention.
//
//	ElideRepeats(s)      s with every later mention of a long word shortened
//	elider.elide(s)      the same across all the messages one narrator tells
package narrate

import (
	"fmt"
	"regexp"
)

// longWord is a word long enough to be worth saying once: longer than a line of any terminal.
var longWord = regexp.MustCompile(`[^\s"'/:,;()]{80,}`)

// ElideRepeats shortens every mention of a long word after its first to its first 16 characters and
// its length: "aaaaaaaaaaaaaaaa…(10000 characters)".
func ElideRepeats(s string) string { return (&elider{}).elide(s) }

// elider remembers the long words already shown in full.
type elider struct{ seen map[string]bool }

func (e *elider) elide(s string) string {
	return longWord.ReplaceAllStringFunc(s, func(w string) string {
		if !e.seen[w] {
			if e.seen == nil {
				e.seen = map[string]bool{}
			}
			e.seen[w] = true
			return w
		}
		r := []rune(w)
		return fmt.Sprintf("%s…(%d characters)", string(r[:16]), len(r))
	})
}

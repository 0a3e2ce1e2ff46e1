// escape.go is how a value containing selector syntax travels inside a field
// selector. Interface: EscapeValue, UnescapeValue, InvalidEscapeSequence,
// UnescapedRune.
//
// In a field selector ',' separates terms and '=' separates a field from its
// value, so a value that contains either (or a backslash) is written with a
// backslash before it: the value "a,b=c" is `a\,b\=c`. Kubernetes
// recognises exactly these three escapes; '!' needs none, because the
// operator is the first "!=", "==" or "=" in the term.
package fields

import (
	"fmt"
	"strings"
)

// valueEscaper escapes the three characters with a meaning in a value.
var valueEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// EscapeValue returns value written for use in a field selector.
func EscapeValue(value string) string { return valueEscaper.Replace(value) }

// InvalidEscapeSequence is the error for a backslash before anything other
// than '\', ',' or '=', or at the end of a value.
type InvalidEscapeSequence struct {
	Sequence string
}

func (e InvalidEscapeSequence) Error() string {
	return fmt.Sprintf("invalid field selector: invalid escape sequence: %s", e.Sequence)
}

// UnescapedRune is the error for a ',' or '=' inside a value without a
// backslash before it.
type UnescapedRune struct {
	Rune rune
}

// Error names the character by its code, as Kubernetes does: 61 is '=' and
// 44 is ','.
func (e UnescapedRune) Error() string {
	return fmt.Sprintf("invalid field selector: unescaped character in value: %d", e.Rune)
}

// UnescapeValue undoes EscapeValue, and rejects a value with an unknown
// escape or an unescaped ',' or '='.
func UnescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			if c != '\\' && c != ',' && c != '=' {
				return "", InvalidEscapeSequence{Sequence: `\` + string(c)}
			}
			b.WriteRune(c)
			escaped = false
		case c == '\\':
			escaped = true
		case c == ',' || c == '=':
			return "", UnescapedRune{Rune: c}
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", InvalidEscapeSequence{Sequence: `\`}
	}
	return b.String(), nil
}

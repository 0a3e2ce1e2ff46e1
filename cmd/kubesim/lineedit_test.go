package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// typeKeys feeds the bytes a terminal sends to an editor, as lineReader does, and returns the line
// at Enter (or the end of the keys) and whether it stands.
func typeKeys(e *editor, keys string) (line string, ok bool) {
	e.start()
	b := []byte(keys)
	for len(b) > 0 {
		k, n := decodeKey(b)
		if n == 0 {
			break
		}
		b = b[n:]
		if _, done, ok := e.key(k); done {
			return e.line(), ok
		}
	}
	return e.line(), true
}

func newTestEditor(history ...string) *editor {
	pods := []string{"nginx-77bf8679f9-bxjfr", "nginx-77bf8679f9-fbb92"}
	return &editor{prompt: "(kubesim) > ", width: 80, history: history, complete: func(before string) []string {
		return complete(before, func([]string) []string {
			if strings.HasPrefix(before, "describe pods ") {
				return pods
			}
			return words
		})
	}}
}

const (
	up, down, left, right = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"
	home, del, backspace  = "\x01", "\x1b[3~", "\x7f"
)

func TestEditorEditsTheLine(t *testing.T) {
	for _, tc := range []struct{ keys, line string }{
		{"next 2\r", "next 2"},
		{"get pdos" + backspace + backspace + backspace + "ods\r", "get pods"},
		{"et pods" + home + "g\r", "get pods"},
		{"gget" + home + del + "\r", "get"},
		{"get pods nginx" + "\x17" + "\x17" + "nodes\r", "get nodes"},
		{"xxdescribe pod" + home + right + right + "\x15" + "\r", "describe pod"},
	} {
		line, ok := typeKeys(newTestEditor(), tc.keys)
		assert.True(t, ok)
		assert.Equal(t, tc.line, line, "%q", tc.keys)
	}
	_, ok := typeKeys(newTestEditor(), "\x04")
	assert.False(t, ok, "Ctrl-D on an empty line ends the input")
}

// Up and Down walk the history; what was being typed comes back at its end.
func TestEditorHistory(t *testing.T) {
	history := []string{"get pods", "queue"}
	line, _ := typeKeys(newTestEditor(history...), up+"\r")
	assert.Equal(t, "queue", line)
	line, _ = typeKeys(newTestEditor(history...), up+up+up+"\r")
	assert.Equal(t, "get pods", line)
	line, _ = typeKeys(newTestEditor(history...), "cache"+up+up+down+down+"\r")
	assert.Equal(t, "cache", line)
}

// Tab completes one choice with a space after it, several to what they share; with nothing to add,
// it lists them.
func TestEditorCompletes(t *testing.T) {
	line, _ := typeKeys(newTestEditor(), "ca\t\r")
	assert.Equal(t, "cache ", line)
	line, _ = typeKeys(newTestEditor(), "describe pods \t\r")
	assert.Equal(t, "describe pods nginx-77bf8679f9-", line)
	e := newTestEditor()
	typeKeys(e, "describe pods nginx-77bf8679f9-")
	out, _, _ := e.key(key{name: "tab"})
	assert.Contains(t, out, "nginx-77bf8679f9-bxjfr  nginx-77bf8679f9-fbb92")
	assert.Equal(t, "describe pods nginx-77bf8679f9-", e.line())
	out, _, _ = newTestEditor().key(key{name: "tab"})
	assert.NotEmpty(t, out)
}

// A key cut between two reads waits for the rest.
func TestDecodeKeyWaitsForTheRestOfASequence(t *testing.T) {
	for _, partial := range []string{"\x1b", "\x1b[", "\x1b[3", "\xe4\xb8"} {
		_, n := decodeKey([]byte(partial))
		assert.Zero(t, n, "%q", partial)
	}
	k, n := decodeKey([]byte("中文"))
	assert.Equal(t, key{r: '中'}, k)
	assert.Equal(t, 3, n)
}

// The cursor moves over rows when the line wraps: from offset 45 to 5 on a 20-column terminal is two
// rows up, then five columns right.
func TestEditorMovesAcrossWrappedRows(t *testing.T) {
	e := &editor{width: 20, cur: 45}
	assert.Equal(t, "\x1b[2A\r\x1b[5C", e.moveTo(5))
	assert.Equal(t, "\x1b[1B\r", e.moveTo(20))
	assert.Equal(t, 7, displayWidth("下一步n"), "a Chinese character takes two columns")
}

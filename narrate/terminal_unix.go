//go:build unix

// terminal_unix.go: how wide the terminal is, asked of the terminal itself (the TIOCGWINSZ ioctl), so
// the text story wraps where the learner's window does.
package narrate

import (
	"os"

	"golang.org/x/sys/unix"
)

// TerminalWidth is the number of columns of the terminal f writes to; 0 (no wrapping: one line per
// event, as grep and diff want) when f is a pipe or a file; DefaultWidth when a terminal does not say.
func TerminalWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	switch {
	case err != nil:
		return 0
	case ws.Col == 0:
		return DefaultWidth
	}
	return int(ws.Col)
}

//go:build unix

// terminal_unix.go: how wide the terminal is, asked of the terminal itself (the TIOCGWINSZ ioctl), so
// the text story wraps where the learner's window does.
package narrate

import (
	"os"

	"golang.org/x/sys/unix"
)

// TerminalWidth is the number of columns of the terminal f writes to, or DefaultWidth when f is not
// a terminal (a pipe, a file) or does not say.
func TerminalWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 {
		return DefaultWidth
	}
	return int(ws.Col)
}

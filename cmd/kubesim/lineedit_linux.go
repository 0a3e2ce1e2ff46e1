// lineedit_linux.go: cbreak mode on Linux, through termios: no echo, a key at a time (ICANON and ECHO
// off), signals still on (ISIG), so Ctrl-C stops the run as it does everywhere else in kubesim.
package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// termios is a terminal's mode as it was, and the cbreak mode derived from it.
type termios struct {
	fd         int
	line, cbrk unix.Termios
}

// cbreak returns f's modes, or an error when f is not a terminal.
func cbreak(f *os.File) (terminalMode, error) {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return nil, err
	}
	raw := *t
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	return &termios{fd: fd, line: *t, cbrk: raw}, nil
}

func (t *termios) raw() error     { return unix.IoctlSetTermios(t.fd, unix.TCSETS, &t.cbrk) }
func (t *termios) restore() error { return unix.IoctlSetTermios(t.fd, unix.TCSETS, &t.line) }

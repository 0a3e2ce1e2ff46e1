//go:build unix

// tempdir_unix.go: the two questions the sweep (tempdir.go) asks the operating system.
//
//	processAlive(pid)   whether a process with this PID exists
//	ownedByMe(info)     whether this user owns a file

package store

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processAlive sends signal 0, which checks that pid exists without signalling it. EPERM means it
// exists but belongs to someone else: alive.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

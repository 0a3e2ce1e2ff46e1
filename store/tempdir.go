// tempdir.go: the embedded member's temporary directories, and the sweep of the ones a killed
// process left behind.
//
//	NewTempDir(name)      sweep, then a fresh kubesim-NAME-* directory marked with this process's PID
//	newTempDir(pattern)   a fresh directory in os.TempDir(), marked with this process's PID
//	sweepStale()          remove kubesim's temporary directories whose owner process is gone
//
// etcd preallocates its write-ahead log (two 64 MB segments), so every run that forgets its data
// directory leaves more than 100 MB behind. Close removes the directories; a process that dies
// without running Close (SIGKILL, a crash) leaves them, and the next Open sweeps them. The sweep
// touches a directory only when it is sure the directory is kubesim's and its owner is dead: the
// name starts with kubesimPrefix, it is a real directory (not a link) owned by this user, it holds an
// owner file with the PID that created it, and no process with that PID exists. A directory
// without an owner file (being created right now, or not kubesim's) is left alone, and so is
// everything else in the temporary directory.

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// kubesimPrefix starts the name of every temporary directory kubesim marks and sweeps: the store's
// (tempPrefix) and those the wiring makes with NewTempDir (kubesim serve's).
const kubesimPrefix = "kubesim-"

// tempPrefix starts the name of every temporary directory the store creates.
const tempPrefix = kubesimPrefix + "etcd-"

// NewTempDir removes the temporary directories that killed kubesim processes left behind, then
// creates kubesim-NAME-* in os.TempDir(), marked as this process's so that a later run sweeps it
// if this one is killed. The caller removes it when done.
func NewTempDir(name string) (string, error) {
	sweepStale()
	return newTempDir(kubesimPrefix + name + "-")
}

// ownerFile, inside a temporary directory, holds the decimal PID of the process that created it.
const ownerFile = "kubesim.pid"

// newTempDir creates a directory in os.TempDir() named pattern (see os.MkdirTemp) and marks it as
// owned by this process.
func newTempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	pid := strconv.Itoa(os.Getpid()) + "\n"
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(pid), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("mark %s as this process's: %w", dir, err)
	}
	return dir, nil
}

// sweepStale removes the temporary directories of kubesim processes that no longer exist. It
// returns the directories it removed. Errors are not fatal to the caller: a directory it cannot
// read or remove is simply left.
func sweepStale() []string {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), kubesimPrefix) || e.Type() != fs.ModeDir {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		pid, ok := stalePID(dir)
		if !ok || processAlive(pid) {
			continue
		}
		if err := os.RemoveAll(dir); err == nil || errors.Is(err, fs.ErrNotExist) {
			removed = append(removed, dir)
		}
	}
	return removed
}

// stalePID reads the owner PID of dir, a candidate for the sweep. ok is false unless dir is owned
// by this user and holds a well-formed owner file.
func stalePID(dir string) (pid int, ok bool) {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() || !ownedByMe(info) {
		return 0, false
	}
	data, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return 0, false
	}
	pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return 0, false
	}
	return pid, true
}

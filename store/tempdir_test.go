// Tests of the sweep of temporary directories left by killed processes: it removes kubesim's own,
// whose owner is gone, and nothing else.

package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// privateTempDir points TMPDIR at a fresh directory for the test. Its path is short: an embedded
// member's socket paths must fit in about 100 bytes, and t.TempDir's do not.
func privateTempDir(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("/tmp", "ks")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

func TestSweepRemovesOnlyKubesimDirectoriesOfDeadProcesses(t *testing.T) {
	tmp := privateTempDir(t)
	dead := strconv.Itoa(deadPID(t))
	alive := strconv.Itoa(os.Getppid())
	mkdir := func(name, owner string) string {
		dir := filepath.Join(tmp, name)
		require.NoError(t, os.Mkdir(dir, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "member"), []byte("wal"), 0o600))
		if owner != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner+"\n"), 0o600))
		}
		return dir
	}
	stale := mkdir("kubesim-etcd-111", dead)
	staleSockets := mkdir("kubesim-etcd-sock-222", dead)
	kept := []string{
		mkdir("kubesim-etcd-333", alive),                     // its owner still runs
		mkdir("kubesim-etcd-444", ""),                        // no owner file: being created, or not ours
		mkdir("kubesim-etcd-555", "not a pid"),               // an owner file we did not write
		mkdir("kubesim-etcd-666", strconv.Itoa(os.Getpid())), // ours
		mkdir("somebody-else-777", dead),                     // not kubesim's name
	}
	link := filepath.Join(tmp, "kubesim-etcd-link")
	require.NoError(t, os.Symlink(mkdir("target", dead), link))
	kept = append(kept, link, filepath.Join(tmp, "target"))
	file := filepath.Join(tmp, "kubesim-etcd-file")
	require.NoError(t, os.WriteFile(file, []byte(dead), 0o600))
	kept = append(kept, file)

	assert.ElementsMatch(t, []string{stale, staleSockets}, sweepStale())
	assert.NoDirExists(t, stale)
	assert.NoDirExists(t, staleSockets)
	for _, p := range kept {
		_, err := os.Lstat(p)
		assert.NoError(t, err, "%s must be kept", p)
	}
}

func TestTempDirIsMarkedWithThisProcess(t *testing.T) {
	privateTempDir(t)
	dir, err := newTempDir(tempPrefix)
	require.NoError(t, err)
	pid, ok := stalePID(dir)
	assert.False(t, ok, "a directory of this process is never stale (pid %d)", pid)
	data, err := os.ReadFile(filepath.Join(dir, ownerFile))
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(os.Getpid())+"\n", string(data))
}

func TestOpenSweepsStaleDirectoriesAndCloseRemovesItsOwn(t *testing.T) {
	tmp := privateTempDir(t)
	stale := filepath.Join(tmp, "kubesim-etcd-111")
	require.NoError(t, os.Mkdir(stale, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(stale, ownerFile), []byte(strconv.Itoa(deadPID(t))), 0o600))

	s, err := Open(t.Context(), Config{})
	require.NoError(t, err)
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the stale directory is swept, the store's own is there")
	assert.NotEqual(t, "kubesim-etcd-111", entries[0].Name())

	require.NoError(t, s.Close())
	entries, err = os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

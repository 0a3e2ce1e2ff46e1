// Tests of how kubesim ends when it is stopped: each signal a process survives, and a reader that
// closes the pipe, end the run cleanly and leave the temporary directory as it was; a run killed
// with SIGKILL leaves its etcd directory, and the next run removes it.
//
// The tests start this test binary as kubesim itself (TestMain runs main when asked to), each with
// a private TMPDIR, so that they see exactly the directories kubesim creates.
package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/internal/testenv/waiting"
)

// asKubesim, set in the environment, makes the test binary run kubesim's main with its arguments.
const asKubesim = "KUBESIM_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asKubesim) == "1" {
		main()
	}
	// This package's parallel tests serve a cluster in real time or run kubesim in a child process,
	// and mostly wait (for the cluster clock, for go build, for a child's signal, for kubectl and a
	// browser). Six at once: the four longest, which wait 15-20 s each, start together instead of
	// the last of them queueing behind the first.
	waiting.Allow(6)
	os.Exit(m.Run())
}

// process is kubesim running in a separate process with its own temporary directory.
type process struct {
	cmd   *exec.Cmd
	tmp   string
	lines chan string // stdout, line by line, closed at its end
}

// startKubesim starts kubesim with args and TMPDIR set to tmp (a fresh one if empty). stdout is
// read line by line into lines; closeStdout closes the reading end.
func startKubesim(t *testing.T, tmp string, args ...string) (*process, func()) {
	t.Helper()
	if tmp == "" {
		tmp = privateTempDir(t)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asKubesim+"=1", "TMPDIR="+tmp)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdout = w
	require.NoError(t, cmd.Start())
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	p := &process{cmd: cmd, tmp: tmp, lines: make(chan string, 1000)}
	go func() {
		defer close(p.lines)
		in := bufio.NewScanner(r)
		for in.Scan() {
			p.lines <- in.Text()
		}
	}()
	return p, func() { r.Close() }
}

// privateTempDir is a fresh temporary directory for one kubesim process. Its path is short: etcd's
// socket paths must fit in about 100 bytes, and t.TempDir's do not.
func privateTempDir(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("/tmp", "ks")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	return tmp
}

// waitRunning reads the story until n lines are out and etcd's data directory exists.
func (p *process) waitRunning(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(time.Minute)
	read := 0
	for read < n || len(p.entries(t)) == 0 {
		select {
		case _, ok := <-p.lines:
			require.True(t, ok, "kubesim ended before it was stopped")
			read++
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatal("kubesim did not start within a minute")
		}
	}
}

func (p *process) entries(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(p.tmp)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// wait drains stdout and returns the exit status.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	go func() {
		for range p.lines {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		require.NoError(t, err)
		return 0
	case <-time.After(time.Minute):
		t.Fatal("kubesim did not end within a minute of being stopped")
		return -1
	}
}

func TestEverySignalEndsTheRunAndLeavesNoDirectoryBehind(t *testing.T) {
	for _, tc := range []struct {
		sig    syscall.Signal
		status int
	}{
		{syscall.SIGINT, 130},
		{syscall.SIGTERM, 143},
		{syscall.SIGHUP, 129},
	} {
		t.Run(signalName(tc.sig), func(t *testing.T) {
			t.Parallel()
			p, _ := startKubesim(t, "", "run", "node-down", "--speed", "60")
			p.waitRunning(t, 5)
			require.NoError(t, p.cmd.Process.Signal(tc.sig))
			assert.Equal(t, tc.status, p.wait(t))
			assert.Empty(t, p.entries(t), "the temporary directory is as it was")
		})
	}
}

func TestAClosedPipeEndsTheRunAndLeavesNoDirectoryBehind(t *testing.T) {
	t.Parallel()
	p, closeStdout := startKubesim(t, "", "run", "node-down", "--speed", "60") // as in: | head -5
	p.waitRunning(t, 5)
	closeStdout()
	assert.Equal(t, 128+int(syscall.SIGPIPE), p.wait(t))
	assert.Empty(t, p.entries(t), "the temporary directory is as it was")
}

func TestAFailedRunLeavesNoDirectoryBehind(t *testing.T) {
	t.Parallel()
	p, _ := startKubesim(t, "", "run", "api-gates", "--until", "deployment nope available")
	assert.Equal(t, 1, p.wait(t))
	assert.Empty(t, p.entries(t))
}

func TestTheNextRunRemovesTheDirectoryOfAKilledOne(t *testing.T) {
	t.Parallel()
	killed, _ := startKubesim(t, "", "run", "node-down", "--speed", "60")
	killed.waitRunning(t, 5)
	require.NoError(t, killed.cmd.Process.Signal(syscall.SIGKILL))
	assert.Equal(t, -1, killed.wait(t), "killed by a signal")
	left := killed.entries(t)
	require.NotEmpty(t, left, "SIGKILL leaves etcd's directory behind")
	require.NoError(t, os.WriteFile(killed.tmp+"/kubesim-etcd-notes.txt", []byte("not a directory of kubesim's"), 0o600))

	next, _ := startKubesim(t, killed.tmp, "run", "api-gates")
	assert.Equal(t, 0, next.wait(t))
	assert.Equal(t, []string{"kubesim-etcd-notes.txt"}, next.entries(t), "only the killed run's directory is gone")
}

// An interruption in-process: Ctrl-C at the step prompt.
func TestCtrlCIsAnInterruptionNotAFailedCheck(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut strings.Builder
	code := run(ctx, []string{"run", "create-deployment", "--step"}, &ctrlC{cancel: cancel}, &out, &errOut)
	assert.Equal(t, 130, code)
	assert.Contains(t, errOut.String(), "kubesim: interrupted\n")
	assert.Contains(t, out.String(), "\ninterrupted after ")
	assert.NotContains(t, out.String()+errOut.String(), "failed")
	assert.NotContains(t, out.String()+errOut.String(), "context canceled")
}

// ctrlC is a terminal on which the learner presses Enter once, then Ctrl-C.
type ctrlC struct {
	cancel  func()
	entered bool
}

func (c *ctrlC) Read(p []byte) (int, error) {
	if !c.entered {
		c.entered = true
		return copy(p, "\n"), nil
	}
	c.cancel()
	return 0, io.EOF
}

func TestQQuitsTheStepPrompt(t *testing.T) {
	var out, errOut strings.Builder
	code := run(context.Background(), []string{"run", "create-deployment", "--step"}, strings.NewReader("\n\nq\n"), &out, &errOut)
	assert.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "\nstopped at the prompt (")
	assert.Equal(t, 3, strings.Count(errOut.String(), "(kubesim) next, continue"))
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"kubesim/internal/testenv/syncbuf"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the side a terminal emulator holds, and the side a program uses.
func openPTY(t *testing.T) (term, tty *os.File) {
	t.Helper()
	term, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, unix.IoctlSetPointerInt(int(term.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(term.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close(); term.Close() })
	return term, tty
}

// At a terminal the prompt completes with Tab and recalls with Up; the terminal is in its line mode
// again once the run ends.
func TestPromptAtATerminalCompletesAndRemembers(t *testing.T) {
	term, tty := openPTY(t)
	screen := &syncbuf.Buffer{}
	go io.Copy(screen, term)
	// prompts waits until the terminal shows n prompts (a hang guard, not a measure).
	prompts := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); strings.Count(screen.String(), "(kubesim)") < n; {
			require.True(t, time.Now().Before(deadline), "no prompt %d on the terminal:\n%s", n, screen.String())
			time.Sleep(10 * time.Millisecond)
		}
	}
	var out bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(context.Background(), []string{"run", "create-deployment", "--break", "scheduler bind"}, tty, &out, tty)
	}()
	prompts(1)
	term.WriteString("ge\tpo\t\r") // get pods
	prompts(2)
	term.WriteString("\x1b[A\r") // Up: get pods again
	prompts(3)
	term.WriteString("q\r")
	require.Equal(t, 0, <-done, out.String())

	assert.Len(t, regexp.MustCompile(`(?m)^NAME +READY +STATUS`).FindAllString(out.String(), -1), 2, "get pods, twice:\n%s", out.String())
	assert.Contains(t, screen.String(), "get pods ", "the editor echoes the completed line")
	mode, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	require.NoError(t, err)
	assert.NotZero(t, mode.Lflag&unix.ICANON, "the terminal is back in line mode")
	assert.NotZero(t, mode.Lflag&unix.ECHO, "the terminal echoes again")
}

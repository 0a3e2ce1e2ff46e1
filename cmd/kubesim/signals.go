// signals.go: how kubesim ends when it is told to stop, so that it always gets to remove etcd's
// temporary data directory (more than 100 MB) on the way out.
//
//	withSignals(ctx)          a context cancelled by SIGINT (Ctrl-C), SIGTERM (kill, timeout) or SIGHUP
//	                          (the terminal closed), with the signal as its cause
//	pipeWriter                standard output that cancels the run when its reader is gone
//	                          (`kubesim run node-down | head -1`)
//	interrupted(ctx, stderr)  the exit status of a stopped run: 128 + the signal's number
//
// Left alone, each of these signals kills a Go program on the spot and no deferred cleanup runs.
// Caught, they cancel the run's context instead: the scenario unwinds, the cluster closes and the
// store removes its directory. A second signal is not caught: it kills at once (the next run sweeps
// what that leaves behind). SIGKILL cannot be caught at all; the same sweep handles it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// stopSignal is the cause of a run's cancellation: the signal that stopped it.
type stopSignal struct{ sig syscall.Signal }

func (s stopSignal) Error() string {
	switch s.sig {
	case syscall.SIGINT:
		return "interrupted"
	case syscall.SIGPIPE:
		return "standard output closed"
	}
	return fmt.Sprintf("stopped by %s", signalName(s.sig))
}

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return sig.String()
}

// withSignals returns a context that the first SIGINT, SIGTERM or SIGHUP cancels, with a stopSignal
// as its cause. SIGPIPE is ignored, so that a write to a closed pipe returns EPIPE (see pipeWriter)
// instead of killing the process. stop releases the signals.
func withSignals(parent context.Context) (ctx context.Context, cancel context.CancelCauseFunc, stop func()) {
	ctx, cancel = context.WithCancelCause(parent)
	signal.Ignore(syscall.SIGPIPE)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch) // a second signal kills at once
			cancel(stopSignal{sig.(syscall.Signal)})
		case <-done:
		}
	}()
	return ctx, cancel, func() {
		signal.Stop(ch)
		close(done)
	}
}

// pipeWriter is standard output for a run: when the reader has gone (EPIPE), it cancels the run
// with SIGPIPE as the cause, as if the signal had been delivered.
type pipeWriter struct {
	f      *os.File
	cancel context.CancelCauseFunc
}

func (w pipeWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		w.cancel(stopSignal{syscall.SIGPIPE})
	}
	return n, err
}

// Stat lets isTerminal see the file underneath.
func (w pipeWriter) Stat() (os.FileInfo, error) { return w.f.Stat() }

// interrupted returns the exit status of a run whose context was cancelled (0 if it was not): 128 +
// the signal's number, as a shell reports a process that signal killed (130 for Ctrl-C). It says so on
// stderr, except for a closed pipe, where nobody is reading and a quiet exit is what `| head` expects.
// A cancellation without a signal (a test's) counts as Ctrl-C.
func interrupted(ctx context.Context, stderr io.Writer) int {
	if ctx.Err() == nil {
		return 0
	}
	sig := stopSignal{syscall.SIGINT}
	errors.As(context.Cause(ctx), &sig)
	if sig.sig != syscall.SIGPIPE {
		fmt.Fprintf(stderr, "kubesim: %s\n", sig)
	}
	return 128 + int(sig.sig)
}

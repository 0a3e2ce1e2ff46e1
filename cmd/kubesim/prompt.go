// prompt.go: the prompt of a paused run (--step, --break, an interactive --until): it reads commands
// until one resumes the run.
//
//	next [N]      run N more steps (Enter: one)
//	continue      run to the next breakpoint, or the end
//	until COND    run until the condition holds (the language of --until)
//	section       run to the next heading of the story
//	get, describe, logs, etcd get, queue, explain, cache   look at the cluster (sim.Cluster.Inspect)
//	help          these commands
//	q             stop the run
//
// A pause after a step that told nothing new is skipped: nothing to look at.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"kubesim/script"
	"kubesim/sim"
)

// console is the prompt's state between pauses.
type console struct {
	ctx   context.Context
	lines <-chan string // the learner's commands, one a line; closed at the end of input
	out   io.Writer     // the answers to commands
	ask   io.Writer     // the prompt itself
	say   func(format string, args ...any) string
	// show, if set, is told of every pause that tells something: one the learner's order lets go by
	// (asking false), and each time the console is about to read a command (asking true). The web view
	// shows the cluster then.
	show func(p sim.Pause, asking bool)

	resume sim.Resume // how far the learner said to run
}

func newConsole(ctx context.Context, lines <-chan string, out, ask io.Writer, say func(string, ...any) string) *console {
	return &console{ctx: ctx, lines: lines, out: out, ask: ask, say: say}
}

// readLines reads stdin's lines until ctx is cancelled.
func readLines(ctx context.Context, stdin io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		in := bufio.NewScanner(stdin)
		for in.Scan() {
			select {
			case lines <- in.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return lines
}

// pause is sim.PlayOptions.Pause: it reports false when the learner stops the run.
func (c *console) pause(p sim.Pause) bool {
	if !c.resume.Ask(c.ctx, p) {
		if c.show != nil && !p.Quiet {
			c.show(p, false)
		}
		return true
	}
	if c.resume.Held != "" {
		fmt.Fprintln(c.out, c.say("%s holds.", c.resume.Held))
	}
	for {
		if c.show != nil {
			c.show(p, true)
		}
		fmt.Fprint(c.ask, c.say("(kubesim) next, continue, section, until COND, get, describe, etcd get, queue, cache, help, q > "))
		var line string
		select {
		case l, ok := <-c.lines:
			if !ok {
				return false
			}
			line = strings.TrimSpace(l)
		case <-c.ctx.Done():
			return false
		}
		if resume, stop := c.command(p, line); stop || resume {
			return !stop
		}
	}
}

// command runs one line: it resumes the run, stops it, or answers and prompts again.
func (c *console) command(p sim.Pause, line string) (resume, stop bool) {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "q", "quit", "exit":
		return false, true
	case "", "n", "next":
		n := 1
		if rest != "" {
			var err error
			if n, err = strconv.Atoi(rest); err != nil || n < 1 {
				fmt.Fprintln(c.out, c.say("next takes a number of steps, 1 or more: next 5"))
				return false, false
			}
		}
		c.resume.Next(n)
		return true, false
	case "c", "continue":
		c.resume.Continue()
		return true, false
	case "s", "section":
		c.resume.Section(p)
		return true, false
	case "until":
		cond, err := script.ParseCondition(rest)
		if err != nil {
			fmt.Fprintln(c.out, err)
			return false, false
		}
		c.resume.Until(cond)
		return true, false
	case "help", "h", "?":
		fmt.Fprintln(c.out, c.say("At the prompt:"))
		for _, l := range []string{
			c.say("next [N]: run one step (Enter), or N"),
			c.say("continue: run to the next breakpoint, or the end"),
			c.say("until COND: run until a condition holds, e.g. until pods bound"),
			c.say("section: run to the next heading of the story"),
		} {
			fmt.Fprintln(c.out, "  "+l)
		}
		for _, cmd := range sim.InspectCommands {
			fmt.Fprintln(c.out, "  "+cmd)
		}
		fmt.Fprintln(c.out, "  q: "+c.say("stop the run"))
		return false, false
	}
	ok, err := p.Cluster.Inspect(c.ctx, c.out, line)
	switch {
	case err != nil:
		fmt.Fprintf(c.out, "Error from server: %v\n", err)
	case !ok:
		fmt.Fprintln(c.out, c.say("unknown command %q: help lists the commands", line))
	}
	return false, false
}

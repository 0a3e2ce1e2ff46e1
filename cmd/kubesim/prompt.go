// prompt.go: the prompt of a paused run (--step, --break, an interactive --until): it reads commands
// until one resumes the run.
//
//	next [N]      run N more steps (Enter: one)
//	continue      run to the next breakpoint, or the end
//	until COND    run until the condition holds (the language of --until)
//	get, describe, logs, etcd get, queue, explain   look at the cluster (sim.Cluster.Inspect)
//	net trace, net rules                           the network as it stands (net_prompt.go)
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
	"slices"
	"strconv"
	"strings"

	"kubesim/script"
	"kubesim/sim"
)

// console is the prompt's state between pauses.
type console struct {
	ctx   context.Context
	lines <-chan string
	out   io.Writer // the answers to commands
	ask   io.Writer // the prompt itself
	say   func(format string, args ...any) string

	skip  int           // steps still to run before the next pause (next N)
	cont  bool          // run to the next breakpoint (continue)
	until sim.Condition // run until it holds (until COND)
}

// newConsole reads stdin's lines until ctx is cancelled.
func newConsole(ctx context.Context, stdin io.Reader, out, ask io.Writer, say func(string, ...any) string) *console {
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
	return &console{ctx: ctx, lines: lines, out: out, ask: ask, say: say}
}

// pause is sim.PlayOptions.Pause: it reports false when the learner stops the run.
func (c *console) pause(p sim.Pause) bool {
	if p.Why == "" {
		switch {
		case c.until != nil:
			if met, err := c.until.Met(c.ctx, p.Cluster); err != nil || !met {
				return true
			}
			fmt.Fprintln(c.out, c.say("%s holds.", c.until))
			c.until = nil
		case c.cont || p.Quiet:
			return true
		case c.skip > 0:
			c.skip--
			return true
		}
	}
	c.cont = false
	for {
		fmt.Fprint(c.ask, c.say("(kubesim) next, continue, until COND, get, describe, etcd get, queue, help, q > "))
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
		c.skip = 0
		if rest != "" {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 {
				fmt.Fprintln(c.out, c.say("next takes a number of steps, 1 or more: next 5"))
				return false, false
			}
			c.skip = n - 1
		}
		return true, false
	case "c", "continue":
		c.cont = true
		return true, false
	case "until":
		cond, err := script.ParseCondition(rest)
		if err != nil {
			fmt.Fprintln(c.out, err)
			return false, false
		}
		c.until = cond
		return true, false
	case "net":
		netAtPrompt(c.ctx, c.out, p.Cluster, rest)
		return false, false
	case "help", "h", "?":
		fmt.Fprintln(c.out, c.say("At the prompt:"))
		for _, l := range []string{
			c.say("next [N]: run one step (Enter), or N"),
			c.say("continue: run to the next breakpoint, or the end"),
			c.say("until COND: run until a condition holds, e.g. until pods bound"),
		} {
			fmt.Fprintln(c.out, "  "+l)
		}
		for _, cmd := range slices.Concat(sim.InspectCommands, netPromptCommands) {
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

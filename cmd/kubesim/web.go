// web.go: `kubesim web [SCENARIO]`, the web view: a page on 127.0.0.1 that shows the run stepping (its
// story laid out in one lane per component, the nodes with their pods, the objects as kubectl get
// shows them) with buttons for the prompt's next, section, continue and until.
//
//	kubesim web                                   create-deployment, on http://127.0.0.1:7070/
//	kubesim web node-down --break 'scheduler bind' --addr 127.0.0.1:0
//
// It is the run of `kubesim run SCENARIO --step`: the same step driver, the same seed, the same story,
// the same prompt (prompt.go), whose commands come from the page instead of the keyboard. Package web
// serves the page; this file wires the run to it. After the run the page stays up until Ctrl-C, which
// also stops a run in the middle: the cluster closes and etcd's temporary directory goes with it.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"kubesim/narrate"
	"kubesim/sim"
	"kubesim/web"
)

const webUsage = `usage: kubesim web [SCENARIO] [flags]

Plays a scenario (create-deployment unless named) in step mode, paused at its first step (with
--break: at the first breakpoint), and serves a page that shows it stepping: the story in one lane per component, the nodes and their pods, the objects as kubectl get
shows them, and buttons for next, section, continue and until (the prompt's commands; its command
box takes the others: get, describe, cache, queue, ...). Open the address it prints; Ctrl-C stops.`

// webShutdownGrace bounds how long the page's requests may take to finish on exit.
const webShutdownGrace = 500 * time.Millisecond

func webCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("web", webUsage, stderr)
	breaks := &breakList{}
	fs.Var(breaks, "break", `pause before an action (repeatable): "scheduler bind", "kubelet StartContainer node-2", "apiserver admit", "etcd put /registry/pods"`)
	addr := fs.String("addr", "127.0.0.1:7070", "address to serve the page on (port 0: any free port)")
	seed := fs.Int64("seed", 1, "seed for every random choice: same seed, same run as kubesim run")
	lang := fs.String("lang", "en", "language of the story: en or zh")
	name, code, ok := parseName(fs, args)
	if !ok {
		return code
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "kubesim web: "+format+"\n", args...)
		return 2
	}
	if name == "" {
		name = "create-deployment"
	}
	sc, ok := lookup(name, stderr)
	if !ok {
		return 2
	}
	if _, err := narrate.New(io.Discard, narrate.Options{Lang: *lang}); err != nil {
		return fail("--lang: %v", err)
	}
	var points []sim.Breakpoint
	for _, b := range *breaks {
		bp, err := sim.ParseBreakpoint(b)
		if err != nil {
			return fail("--break: %v", err)
		}
		points = append(points, bp)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail("%v", err)
	}
	narration := narrate.Options{Lang: *lang, Short: true, Catalog: sim.Catalog(sc.ZH)}
	summary := sc.Summary
	if *lang == "zh" && sc.SummaryZH != "" {
		summary = sc.SummaryZH
	}
	page := web.New(narration.Sprintf("scenario %s: %s", sc.Name, summary))
	srv := &http.Server{Handler: page.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "kubesim web: http://%s/ shows scenario %s (Ctrl-C stops)\n", ln.Addr(), sc.Name)

	code = playOnPage(ctx, page, sc, narration, *seed, points, *breaks)
	if ctx.Err() == nil {
		fmt.Fprintln(stdout, "kubesim web: the run is over; the page stays up until Ctrl-C")
	}
	<-ctx.Done()
	page.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), webShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "kubesim web: %v\n", err)
	}
	return code
}

// playOnPage plays sc with its story on the page and the prompt's commands taken from it; it returns
// run's exit status.
func playOnPage(ctx context.Context, page *web.Server, sc sim.Scenario, narration narrate.Options, seed int64, points []sim.Breakpoint, breaks []string) int {
	var answer bytes.Buffer
	con := newConsole(ctx, promptLines(ctx, page.Commands(), io.Discard), &answer, narration.Sprintf)
	if len(points) > 0 {
		con.resume.Continue() // as run --break: to the first breakpoint (else, as run --step: the first step)
	}
	con.show = func(p sim.Pause, asking bool) {
		if answer.Len() > 0 {
			page.Answer(answer.String())
			answer.Reset()
		}
		st := pageState(ctx, p, breaks)
		st.Running = !asking
		page.Show(st)
	}
	err := sim.Play(ctx, sc, sim.PlayOptions{Seed: seed, Out: page.Story(), Narrate: narration, Breaks: points, Pause: con.pause})
	switch {
	case err == nil:
		page.End("")
		return 0
	case ctx.Err() != nil:
		page.End(narration.Sprintf("interrupted"))
		return 1
	}
	page.End(err.Error())
	return 1
}

// pageState is what the page shows at pause p.
func pageState(ctx context.Context, p sim.Pause, breaks []string) web.State {
	return clusterState(ctx, p.Cluster, p.Why, breaks)
}

// clusterState is what the page shows of cluster c: why it stands (a breakpoint's words), its clock,
// etcd's revision and the everyday kinds' tables.
func clusterState(ctx context.Context, c *sim.Cluster, why string, breaks []string) web.State {
	st := web.State{Why: why, ClusterTime: c.Trace.Since().Round(time.Millisecond).String(), Breakpoints: breaks}
	st.Revision, _ = c.Ledger().CurrentRevision(ctx)
	for _, kind := range everydayKinds {
		head, rows, err := c.Table(ctx, kind, "default")
		if err != nil {
			continue // the cluster is closing: show what there is
		}
		st.Tables = append(st.Tables, web.Table{Kind: kind, Head: head, Rows: rows})
	}
	return st
}

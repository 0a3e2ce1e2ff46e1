// serve_web.go: `kubesim serve --web ADDR`, the web view (package web) of a served cluster, beside
// the real kubectl. With --step the page shows the story of each step as the serve terminal does and
// its Next and Until buttons step the cluster as `kubesim step` does; in real time the page shows the
// cluster's objects as they change (kubectl drives the cluster; the story is in the audit log).
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"time"

	"kubesim/sim"
	"kubesim/web"
)

// serveWebRefresh is how often the real-time page looks at the cluster.
const serveWebRefresh = time.Second

// serveWeb is the page of a served cluster and its HTTP server.
type serveWeb struct {
	page   *web.Server
	srv    *http.Server
	served chan error
	addr   net.Addr
}

// startServeWeb serves the page on addr.
func startServeWeb(addr, title string) (*serveWeb, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--web: %w", err)
	}
	w := &serveWeb{page: web.New(title), served: make(chan error, 1), addr: ln.Addr()}
	w.srv = &http.Server{Handler: w.page.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { w.served <- w.srv.Serve(ln) }()
	return w, nil
}

// story is where the step-mode story goes besides the serve terminal.
func (w *serveWeb) story() io.Writer { return w.page.Story() }

// follow keeps the page up to date until ctx ends: in step mode it takes the page's commands to st
// and shows the cluster after each; in real time it shows the cluster whenever it changed.
func (w *serveWeb) follow(ctx context.Context, c *sim.Cluster, st *stepper) {
	show := func(running bool) web.State {
		state := clusterState(ctx, c, "", nil)
		state.Running = running
		w.page.Show(state)
		return state
	}
	if st == nil {
		last := show(true)
		tick := time.NewTicker(serveWebRefresh)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case line := <-w.page.Commands():
				w.page.Answer(fmt.Sprintf("%q: the cluster runs in real time and kubectl drives it (kubesim serve --step --web steps it from here)", line))
			case <-tick.C:
				state := clusterState(ctx, c, "", nil)
				state.Running = true
				// Only a change is published: the page's history stays as small as what happened.
				if !reflect.DeepEqual(state.Tables, last.Tables) {
					w.page.Show(state)
					last = state
				}
			}
		}
	}
	show(false)
	for {
		select {
		case <-ctx.Done():
			return
		case line := <-w.page.Commands():
			var said string
			n, cond, known, err := parseStepCommand(line)
			if !known {
				err = fmt.Errorf("%q: the served cluster takes next [N] and until COND here; kubectl reads it (%s)", line, stepHelp)
			}
			if err == nil {
				said, err = st.run(ctx, n, cond)
			}
			if err != nil {
				said = err.Error()
			}
			w.page.Answer(said)
			show(false)
		}
	}
}

// close ends the page's streams and its server.
func (w *serveWeb) close() {
	w.page.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), webShutdownGrace)
	defer cancel()
	if err := w.srv.Shutdown(shutdown); err != nil {
		w.srv.Close()
	}
	<-w.served
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/web"
)

// pageEvent is one server-sent event of the web view, as its page reads it.
type pageEvent struct {
	Type  string     `json:"type"`
	Text  string     `json:"text"`
	Line  *web.Line  `json:"line"`
	State *web.State `json:"state"`
}

// followPage streams the page's events into a channel until the test ends.
func followPage(t *testing.T, url string) <-chan pageEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", url+"/events", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	events := make(chan pageEvent, 1024)
	go func() {
		defer resp.Body.Close()
		in := bufio.NewScanner(resp.Body)
		in.Buffer(make([]byte, 1<<20), 1<<20)
		for in.Scan() {
			if data, ok := strings.CutPrefix(in.Text(), "data: "); ok {
				var e pageEvent
				if json.Unmarshal([]byte(data), &e) == nil {
					events <- e
				}
			}
		}
	}()
	return events
}

// waitForEvent reads events until one satisfies ok, and fails the test after a minute.
func waitForEvent(t *testing.T, events <-chan pageEvent, what string, ok func(pageEvent) bool) pageEvent {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case e := <-events:
			if ok(e) {
				return e
			}
		case <-deadline:
			t.Fatalf("the page never showed %s", what)
		}
	}
}

// podRows are the rows of the Pods table a state shows.
func podRows(st *web.State) [][]string {
	for _, tb := range st.Tables {
		if tb.Kind == "pods" {
			return tb.Rows
		}
	}
	return nil
}

// serve --step --web: the page shows the paused cluster; kubectl creates a Deployment, which nothing
// acts on while paused; the page's until command steps the cluster (as kubesim step --until does)
// and the page then shows the story of those steps and the three pods Running.
func TestServeWebViewStepsTheServedCluster(t *testing.T) {
	s := startServe(t, serveOptions{nodes: 2, step: true, port: freePort(t), web: "127.0.0.1:0"})
	m := regexp.MustCompile(`web view: (http://\S+)/`).FindStringSubmatch(s.told.String())
	require.NotNil(t, m, "serve says where the web view is:\n%s", s.told.String())
	events := followPage(t, m[1])
	waitForEvent(t, events, "the paused cluster", func(e pageEvent) bool {
		return e.State != nil && !e.State.Running && len(e.State.Tables) > 0
	})

	s.expect(a("create deployment nginx --image=nginx:1.25 --replicas=3"), `deployment.apps/nginx created`)
	resp, err := http.Post(m[1]+"/command", "text/plain", strings.NewReader("until deployment nginx available"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusAccepted, resp.StatusCode)

	waitForEvent(t, events, "the scheduler's binds in the story", func(e pageEvent) bool {
		return e.Line != nil && e.Line.Component == "kube-scheduler" && strings.Contains(e.Line.Message, "bind default/nginx-")
	})
	waitForEvent(t, events, "the until command's answer", func(e pageEvent) bool {
		return e.Type == "answer" && strings.Contains(e.Text, "deployment nginx available holds")
	})
	waitForEvent(t, events, "three Running pods", func(e pageEvent) bool {
		if e.State == nil {
			return false
		}
		running := 0
		for _, row := range podRows(e.State) {
			if strings.Contains(strings.Join(row, " "), "Running") {
				running++
			}
		}
		return running == 3
	})
	s.stopServe()
}

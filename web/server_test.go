package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readEvents reads n server-sent events from /events.
func readEvents(t *testing.T, ctx context.Context, url string, n int) []event {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url+"/events", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	var out []event
	in := bufio.NewScanner(resp.Body)
	for len(out) < n && in.Scan() {
		data, ok := strings.CutPrefix(in.Text(), "data: ")
		if !ok {
			continue
		}
		var e event
		require.NoError(t, json.Unmarshal([]byte(data), &e))
		out = append(out, e)
	}
	return out
}

// A page opened late gets the whole history first, in order, then what comes next; Close ends the
// stream.
func TestEventsReplayTheHistoryThenFollow(t *testing.T) {
	s := New("scenario demo")
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	s.Story().Write([]byte("── 1. kubectl apply ──\n  301  0s       kubectl                  request: POST\n"))
	s.Show(State{ClusterTime: "0s", Revision: 59})

	got := make(chan []event)
	go func() { got <- readEvents(t, context.Background(), ts.URL, 5) }()
	first := readEvents(t, context.Background(), ts.URL, 4)
	require.Len(t, first, 4)
	assert.Equal(t, "scenario demo", first[0].Text)
	assert.Equal(t, "heading", first[1].Line.Kind)
	assert.Equal(t, "kubectl", first[2].Line.Component)
	assert.Equal(t, int64(59), first[3].State.Revision)

	s.End("")
	all := <-got
	require.Len(t, all, 5)
	assert.Equal(t, "end", all[4].Type)
	s.Close()
	assert.Len(t, readEvents(t, context.Background(), ts.URL, 99), 5, "a closed server sends its history and ends the stream")
}

// The page's buttons post the prompt's commands; the run takes them from Commands.
func TestCommandsReachTheRun(t *testing.T) {
	s := New("scenario demo")
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/command", "text/plain", strings.NewReader(" until pods bound\n"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Equal(t, "until pods bound", <-s.Commands())

	resp, err = http.Get(ts.URL + "/")
	require.NoError(t, err)
	defer resp.Body.Close()
	page := new(strings.Builder)
	bufio.NewReader(resp.Body).WriteTo(page)
	assert.Contains(t, page.String(), `<script src="app.js">`, "the page is served from the embedded files")
}

package main

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/internal/testenv/syncbuf"
	"kubesim/web"
)

func TestWebRefusesBadFlagsBeforeServing(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"web", "no-such-scenario"}, `no scenario named "no-such-scenario"`},
		{[]string{"web", "--break", "scheduler sleep"}, "scheduler bind"},
		{[]string{"web", "--lang", "fr"}, "--lang"},
		{[]string{"web", "create-deployment", "node-down"}, "one"},
	} {
		code, out, errOut := runWith(t, "", tc.args...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Contains(t, errOut, tc.says, "%v", tc.args)
		assert.NotContains(t, out, "http://", "%v", tc.args)
	}
}

// The page pauses at the same breakpoints as the prompt, before the action: at scheduler bind the
// state says so and the pod has no node yet; continue runs to the next one.
func TestWebPausesAtBreakpointsBeforeTheAction(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	done := make(chan int)
	go func() {
		done <- webCommand(ctx, []string{"--addr", "127.0.0.1:0", "--break", "scheduler bind"}, stdout, stderr)
	}()
	url := ""
	for deadline := time.Now().Add(time.Minute); url == ""; url = regexp.MustCompile(`http://\S+/`).FindString(stdout.String()) {
		require.True(t, time.Now().Before(deadline), "no address: %s", stderr.String())
		time.Sleep(10 * time.Millisecond)
	}
	events := followPage(t, strings.TrimSuffix(url, "/"))
	// nextPause reads the stream up to the next state that waits for the learner.
	nextPause := func() web.State {
		t.Helper()
		return *waitForEvent(t, events, "a pause", func(e pageEvent) bool { return e.Type == "state" && e.State != nil && !e.State.Running }).State
	}
	st := nextPause()
	require.Contains(t, st.Why, "scheduler bind: kube-scheduler is about to create pods/binding default/nginx-77bf8679f9-")
	assert.Equal(t, []string{"scheduler bind"}, st.Breakpoints)
	pods := podRows(&st)
	require.Len(t, pods, 3)
	for _, r := range pods {
		assert.Equal(t, "<none>", r[4], "no pod is bound before the first bind")
	}

	post := func(cmd string) {
		resp, err := http.Post(url+"command", "text/plain", strings.NewReader(cmd))
		require.NoError(t, err)
		resp.Body.Close()
	}
	post("continue")
	assert.Contains(t, nextPause().Why, "scheduler bind: kube-scheduler is about to create pods/binding default/nginx-77bf8679f9-")
	cancel()
	assert.Equal(t, 1, <-done, "an interrupted run")
}

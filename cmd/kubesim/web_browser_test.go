// The web view in a real browser: headless Chromium (Debian's chromium package; CI installs it),
// driven through the DevTools protocol by chromedp, opens `kubesim web`, presses Next until a pod is
// Running, and checks what the page shows against the story the terminal tells of the same run.
//
//	go test ./cmd/kubesim -run TestWebView -args -web.screenshot ../../docs/web-view.png
//
// writes the screenshot the README shows.
package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var webScreenshot = flag.String("web.screenshot", "", "TestWebView: write a screenshot of the page to this PNG file")

// chromium is the browser's path, or the test skips.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no chromium binary on PATH: apt-get install -y chromium (CI installs it; .ci/run)")
	return ""
}

func TestWebViewStepsToARunningPodAsTheTerminalTellsIt(t *testing.T) {
	t.Parallel() // it mostly waits for its kubesim child and the browser, beside the others that wait
	browser := chromium(t)
	// The terminal's story of the same run (same scenario, same seed).
	code, terminal, errOut := runWith(t, "", "run", "create-deployment", "--color", "never")
	require.Equal(t, 0, code, errOut)

	p, _ := startKubesim(t, "", "web", "create-deployment", "--addr", "127.0.0.1:0")
	url := ""
	for line := range p.lines {
		if m := regexp.MustCompile(`http://\S+/`).FindString(line); m != "" {
			url = m
			break
		}
	}
	require.NotEmpty(t, url, "kubesim web printed no address")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard, not a measure
	defer cancel()
	// Chromium leaves its singleton socket's directory (org.chromium.Chromium.*) in $TMPDIR when it
	// is killed, as the allocator's cancel does: give it a directory of its own, removed at the end
	// (a short one: t.TempDir's path makes the socket's too long for a unix socket).
	tmp, err := os.MkdirTemp("", "kubesim-chromium")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(tmp) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.WindowSize(1500, 1000), chromedp.Env("TMPDIR="+tmp))
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	defer cancelBrowser()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitEnabled("#next")))

	// Next, until the pods table shows a pod Running (a kubelet has started its container).
	running := ""
	for presses := 0; running == ""; presses++ {
		require.Less(t, presses, 60, "no pod Running after 60 presses of Next")
		require.NoError(t, chromedp.Do(ctx, chromedp.Click("#next"), chromedp.WaitEnabled("#next")))
		var err error
		running, err = chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#table-pods tbody tr")]
			.filter(r => r.cells[2] && r.cells[2].textContent === "Running")
			.map(r => r.cells[0].textContent + " " + r.cells[4].textContent).join(",")`))
		require.NoError(t, err)
	}
	pod, node, _ := strings.Cut(strings.Split(running, ",")[0], " ")

	read := func(a chromedp.Action[string]) string {
		s, err := chromedp.Run(ctx, a)
		require.NoError(t, err)
		return s
	}
	story := read(chromedp.TextContent("#story"))
	where := read(chromedp.TextContent("#where"))
	nodeBox := read(chromedp.Evaluate[string](`document.querySelector('[data-node="` + node + `"]').textContent`))
	lanes := read(chromedp.Evaluate[string](`[...document.querySelectorAll("#lane-head th.lane")].map(th => th.title).join(" ")`))
	// The page told the terminal's story, line for line, up to where it stands.
	require.True(t, strings.HasPrefix(terminal, story), "the page's story is not the start of the terminal's:\n%s", story)
	// The trace says the pod runs, on the node the page puts it on.
	assert.Contains(t, story, "status of default/"+pod+": phase Running")
	assert.Regexp(t, `(?m)kubelet/`+node+` +sync: CreateContainer \+ StartContainer nginx`, story)
	assert.Contains(t, nodeBox, pod+"Running", "the node's box holds the running pod")
	assert.Equal(t, "paused", where)
	for _, lane := range []string{"kubectl", "kube-apiserver", "etcd", "deployment-controller", "replicaset-controller", "kube-scheduler", "kubelet/" + node} {
		assert.Contains(t, strings.Fields(lanes), lane)
	}

	if *webScreenshot != "" {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(*webScreenshot, png, 0o644))
	}

	// Ctrl-C: the page's server stops, the run with it, and etcd's directory goes.
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGINT))
	assert.Equal(t, 130, p.wait(t))
	assert.Empty(t, p.entries(t), "kubesim web left its temporary directory behind")
}

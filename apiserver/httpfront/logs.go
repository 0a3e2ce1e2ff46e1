// logs.go: pods/NAME/log, `kubectl logs`. In Kubernetes the apiserver authorizes `get pods/log`,
// then proxies the request to the kubelet of the pod's node, which reads the container's log file
// that the runtime wrote. Here Do authorizes the same request (and returns the pod), and a LogSource
// that the cluster provides reads the fake runtime's log of the container.
//
// Query: container (required when the pod has several), previous (the last terminated instance:
// `logs --previous` on a crash-looping pod), tailLines, timestamps, and follow (`logs -f`: the log is
// read again every second of cluster time and new lines are streamed until the container ends or the
// client goes; kubelet streams the file as it grows).
package httpfront

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// LogLine is one line a container wrote.
type LogLine struct {
	Time time.Time
	Text string
}

// LogSource reads the log of one container of a pod: the current instance, or with previous the one
// before it. tail < 0 means all that is kept. It returns an apiserver error (a Status) on failure.
type LogSource func(ctx context.Context, pod *api.Pod, container string, previous bool, tail int) ([]LogLine, error)

func (h *Handler) serveLog(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request) {
	q := r.URL.Query()
	req.Verb = wire.VerbGet
	resp, err := h.srv.Do(ctx, req)
	if err != nil {
		writeError(w, err)
		return
	}
	pod := resp.Object.(*api.Pod)
	container := q.Get("container")
	if container == "" {
		if len(pod.Spec.Containers) != 1 {
			var names []string
			for _, c := range pod.Spec.Containers {
				names = append(names, c.Name)
			}
			writeError(w, apierrors.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", pod.Name, strings.Join(names, " "))))
			return
		}
		container = pod.Spec.Containers[0].Name
	}
	tail := -1
	if s := q.Get("tailLines"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			writeError(w, apierrors.NewBadRequest("invalid tailLines "+strconv.Quote(s)))
			return
		}
		tail = n
	}
	if h.logs == nil {
		writeError(w, &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
			Code: http.StatusNotImplemented, Reason: "NotImplemented", Message: "pods/log is not supported by this kubesim server"}})
		return
	}
	previous := isTrue(q.Get("previous"))
	lines, err := h.logs(ctx, pod, container, previous, tail)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	var sent logCursor
	write := func(lines []LogLine) {
		var b strings.Builder
		for _, l := range sent.fresh(lines) {
			if isTrue(q.Get("timestamps")) {
				b.WriteString(l.Time.UTC().Format(time.RFC3339Nano) + " ")
			}
			b.WriteString(l.Text + "\n")
		}
		w.Write([]byte(b.String()))
		if flusher != nil {
			flusher.Flush()
		}
	}
	write(lines)
	if !isTrue(q.Get("follow")) || previous {
		return
	}
	// follow: keep reading until the container ends (or is replaced), or the client goes.
	instance := containerID(pod, container)
	poll := *req
	poll.Quiet = true // polling is not part of the cluster's story
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.clock.After(logPollInterval):
		}
		resp, err := h.srv.Do(ctx, &poll)
		if err != nil {
			return
		}
		pod = resp.Object.(*api.Pod)
		if lines, err = h.logs(ctx, pod, container, false, -1); err == nil && containerID(pod, container) == instance {
			write(lines)
		}
		if containerID(pod, container) != instance || containerEnded(pod, container) {
			return
		}
	}
}

// logPollInterval is how often a followed log is read again, in cluster time.
const logPollInterval = time.Second

// logCursor remembers how far a followed log has been sent: the time of the last line and how many
// lines carried that time.
type logCursor struct {
	last   time.Time
	atLast int
}

// fresh returns the lines not sent yet (lines are in time order) and moves the cursor past them.
func (c *logCursor) fresh(lines []LogLine) []LogLine {
	var out []LogLine
	seenAtLast := 0
	for _, l := range lines {
		switch {
		case l.Time.Before(c.last):
			continue
		case l.Time.Equal(c.last):
			seenAtLast++
			if seenAtLast <= c.atLast {
				continue
			}
		}
		out = append(out, l)
	}
	for _, l := range out {
		if l.Time.After(c.last) {
			c.last, c.atLast = l.Time, 0
		}
		c.atLast++
	}
	return out
}

func containerID(pod *api.Pod, container string) string {
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == container {
			return cs.ContainerID
		}
	}
	return ""
}

func containerEnded(pod *api.Pod, container string) bool {
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == container {
			return cs.State.Terminated != nil
		}
	}
	return pod.DeletionTimestamp != nil
}

// logs.go: pods/NAME/log, `kubectl logs`. In Kubernetes the apiserver authorizes `get pods/log`,
// then proxies the request to the kubelet of the pod's node, which reads the container's log file
// that the runtime wrote. Here Do authorizes the same request (and returns the pod), and a LogSource
// that the cluster provides reads the fake runtime's log of the container.
//
// Query: container (required when the pod has several), previous (the last terminated instance:
// `logs --previous` on a crash-looping pod), tailLines, timestamps. follow is answered with what has
// been written so far: kubesim does not stream logs yet.
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
	lines, err := h.logs(ctx, pod, container, isTrue(q.Get("previous")), tail)
	if err != nil {
		writeError(w, err)
		return
	}
	var b strings.Builder
	for _, l := range lines {
		if isTrue(q.Get("timestamps")) {
			b.WriteString(l.Time.UTC().Format(time.RFC3339Nano) + " ")
		}
		b.WriteString(l.Text + "\n")
	}
	writeText(w, http.StatusOK, b.String())
}

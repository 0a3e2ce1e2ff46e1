// logs.go: what a container has written, for kubectl logs.
//
//	ContainerLogs(ctx, id, tail)   the last tail lines, oldest first
//
// In Kubernetes the runtime writes each container's stdout and stderr to
// /var/log/pods/<ns>_<pod>_<uid>/<container>/<attempt>.log in the CRI log format, and the kubelet
// reads that file for kubectl logs (and, with --previous, the file of the previous attempt, which is
// why an exited container is kept until the next one starts). Here the lines are computed from the
// behaviour when asked: a server's startup banner, a script's echoes, a crash's last words, SIGTERM
// notices, and an access-log line per HTTP probe.

package fakeruntime

import (
	"context"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ContainerLogs returns the last tail lines (tail < 0: all that are kept) of a container's log.
func (r *Runtime) ContainerLogs(ctx context.Context, containerID string, tail int) ([]LogLine, error) {
	c, err := r.enterContainer(ctx, containerID)
	if err != nil {
		return nil, err
	}
	if tail < 0 || tail > maxLogLines {
		tail = maxLogLines
	}
	now := r.clk.Now()
	lines := c.logsLocked(now, tail)
	server, until := "", now
	if c.beh.serves && c.beh.fam.component && r.opts.ServerLog != nil && !c.startedAt.IsZero() {
		server = c.beh.server
		if _, end := c.stateAt(now); end != nil {
			until = end.at
		}
	}
	r.mu.Unlock()
	if server == "" {
		return lines, nil
	}
	lines = append(lines, r.opts.ServerLog(server, until)...)
	slices.SortStableFunc(lines, func(a, b LogLine) int { return a.Time.Compare(b.Time) })
	return lines[max(0, len(lines)-tail):], nil
}

// logsLocked assembles the log as of now.
func (c *container) logsLocked(now time.Time, tail int) []LogLine {
	if c.startedAt.IsZero() {
		return nil
	}
	until := now
	_, end := c.stateAt(now)
	if end != nil {
		until = end.at
	}
	var out []LogLine
	b := c.beh
	if b.serves && until.Sub(c.startedAt) >= b.startDelay {
		at := c.startedAt.Add(b.startDelay)
		for _, l := range startupLog(b, at) {
			out = append(out, LogLine{Time: at, Stream: l[0], Log: l[1]})
		}
	}
	if b.script != nil {
		for _, e := range b.script.logsUpTo(until.Sub(c.startedAt), tail) {
			l := LogLine{Time: c.startedAt.Add(e.at), Stream: e.stream, Log: e.text}
			switch e.kind {
			case evDate:
				l.Log = l.Time.UTC().Format("Mon Jan _2 15:04:05 MST 2006")
			case evFile:
				for _, line := range fileLines(c.mountedAt(l.Time)[e.text]) {
					l.Log = line
					out = append(out, l)
				}
				continue
			}
			out = append(out, l)
		}
	}
	out = append(out, c.probeHits...)
	out = append(out, c.notes...)
	if end != nil && end.log != "" {
		out = append(out, LogLine{Time: end.at, Stream: "stderr", Log: end.log})
	}
	slices.SortStableFunc(out, func(a, b LogLine) int { return a.Time.Compare(b.Time) })
	if len(out) > tail {
		out = out[len(out)-tail:]
	}
	return out
}

// startupLog is a server's banner, as [stream, text] pairs.
func startupLog(b *behavior, at time.Time) [][2]string {
	ts := at.UTC().Format("2006/01/02 15:04:05")
	switch {
	case slices.Contains(b.fam.servers, "nginx"):
		return [][2]string{
			{"stdout", "/docker-entrypoint.sh: Configuration complete; ready for start up"},
			{"stderr", ts + ` [notice] 1#1: using the "epoll" event method`},
			{"stderr", ts + " [notice] 1#1: nginx/" + b.version},
			{"stderr", ts + " [notice] 1#1: start worker processes"},
		}
	case slices.Contains(b.fam.servers, "httpd"):
		return [][2]string{
			{"stderr", "AH00558: httpd: Could not reliably determine the server's fully qualified domain name. Set the 'ServerName' directive globally to suppress this message"},
			{"stderr", fmt.Sprintf("[%s] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/%s (Unix) configured -- resuming normal operations", at.UTC().Format("Mon Jan 02 15:04:05.000000 2006"), b.version)},
		}
	case slices.Contains(b.fam.servers, "redis-server"):
		return [][2]string{
			{"stdout", fmt.Sprintf("1:M %s * Server initialized", at.UTC().Format("02 Jan 2006 15:04:05.000"))},
			{"stdout", fmt.Sprintf("1:M %s * Ready to accept connections tcp", at.UTC().Format("02 Jan 2006 15:04:05.000"))},
		}
	case slices.Contains(b.fam.servers, "coredns"):
		// CoreDNS prints its server blocks, the reload plugin the SHA512 of the Corefile it runs, then
		// its version.
		out := [][2]string{{"stdout", ".:53"}}
		if corefile, ok := b.files["/etc/coredns/Corefile"]; ok {
			sum := sha512.Sum512([]byte(corefile))
			out = append(out, [2]string{"stdout", "[INFO] plugin/reload: Running configuration SHA512 = " + hex.EncodeToString(sum[:])})
		}
		return append(out, [2]string{"stdout", "CoreDNS-" + strings.TrimPrefix(b.version, "v")})
	case slices.Contains(b.fam.servers, "app"):
		return [][2]string{{"stderr", fmt.Sprintf(`{"level":"info","msg":"listening","addr":":8080","version":%q}`, b.version)}}
	}
	return nil
}

// sigtermLog is what a server prints when it receives SIGTERM.
func sigtermLog(b *behavior, at time.Time) string {
	switch {
	case slices.Contains(b.fam.servers, "nginx"):
		return at.UTC().Format("2006/01/02 15:04:05") + " [notice] 1#1: signal 15 (SIGTERM) received, exiting"
	case slices.Contains(b.fam.servers, "httpd"):
		return "[mpm_event:notice] [pid 1:tid 1] AH00491: caught SIGTERM, shutting down"
	case slices.Contains(b.fam.servers, "redis-server"):
		return "1:signal-handler Received SIGTERM scheduling shutdown..."
	}
	return "received SIGTERM, shutting down"
}

// maxProbeHits bounds the access-log lines kept per container: probes run forever, memory must not.
const maxProbeHits = 20

// probeHitLocked appends an access-log line for an HTTP probe, for servers that log requests.
func (c *container) probeHitLocked(now time.Time, from, path string, status int) {
	if !slices.Contains(c.beh.fam.servers, "nginx") && !slices.Contains(c.beh.fam.servers, "httpd") {
		return
	}
	line := fmt.Sprintf(`%s - - [%s] "GET %s HTTP/1.1" %d 615 "-" "kube-probe/1.32"`, from, now.UTC().Format("02/Jan/2006:15:04:05 -0700"), path, status)
	if slices.Contains(c.beh.fam.servers, "nginx") {
		line += ` "-"`
	}
	c.probeHits = append(c.probeHits, LogLine{Time: now, Stream: "stdout", Log: line})
	if len(c.probeHits) > maxProbeHits {
		c.probeHits = slices.Delete(c.probeHits, 0, len(c.probeHits)-maxProbeHits)
	}
}

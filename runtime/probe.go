// probe.go: answering the kubelet's startup, liveness and readiness probes.
//
//	ProbeContainer(ctx, id, probe)   success and the output the kubelet puts in its event
//
// In Kubernetes an exec probe is a CRI ExecSync call, while HTTP and TCP probes are made by the
// kubelet itself, from the node, to the pod IP. kubesim routes all three here, because only the
// runtime knows what the fake process would answer:
//
//	HTTP GET   refused until the server listens (KUBESIM_START_DELAY) or on a port it does not
//	           listen on; nginx and httpd serve only "/" and "/index.html" (anything else is 404,
//	           the classic wrong-path liveness probe); the app image serves every path
//	TCP        succeeds when something listens on the port
//	exec       runs the command through the little shell (script.go) against the container's files
//	           (touch/rm in its command), so "cat /tmp/healthy" works as in the Kubernetes docs
//
// KUBESIM_FAIL_LIVENESS_AFTER and KUBESIM_FAIL_READINESS then make the named probe fail whatever
// its handler: HTTP 500 or 503, a TCP timeout, or exec exit 1.

package fakeruntime

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"time"
)

// ProbeContainer runs one probe.
func (r *Runtime) ProbeContainer(ctx context.Context, containerID string, probe *Probe) (ProbeResult, error) {
	if err := r.enter(ctx); err != nil {
		return ProbeResult{}, err
	}
	if probe == nil {
		return ProbeResult{}, errorf(InvalidArgument, "probe must have a handler")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return ProbeResult{}, err
	}
	now := r.clk.Now()
	if st, _ := c.stateAt(now); st != ContainerRunning {
		return ProbeResult{Output: fmt.Sprintf("container is in %s state", st)}, nil
	}
	ip := probe.Host
	if s := r.sandboxes[c.sandboxID]; ip == "" && s != nil && s.ip.IsValid() {
		ip = s.ip.String()
	}
	elapsed := now.Sub(c.startedAt)
	b := c.beh
	forced := probe.Type == LivenessProbe && b.failsLiveness && elapsed >= b.failLivenessAfter ||
		probe.Type == ReadinessProbe && b.failReadiness
	listening := func(port int32) bool {
		return b.serves && elapsed >= b.startDelay && slices.Contains(b.fam.ports, port)
	}
	switch {
	case probe.HTTPGet != nil:
		h := probe.HTTPGet
		p := cmp.Or(h.Path, "/")
		url := fmt.Sprintf("http://%s%s", hostPort(ip, h.Port), p)
		if !listening(h.Port) {
			return ProbeResult{Output: fmt.Sprintf(`Get %q: dial tcp %s: connect: connection refused`, url, hostPort(ip, h.Port))}, nil
		}
		if slices.Contains(b.fam.servers, "redis-server") {
			return ProbeResult{Output: fmt.Sprintf(`Get %q: net/http: HTTP/1.x transport connection broken: malformed HTTP response "-ERR unknown command 'GET'"`, url)}, nil
		}
		status := 200
		switch {
		case forced && probe.Type == LivenessProbe:
			status = 500
		case forced:
			status = 503
		case !slices.Contains(b.fam.servers, "app") && !b.fam.component && p != "/" && p != "/index.html":
			status = 404
		}
		c.probeHitLocked(now, r.ipam.gateway().String(), p, status)
		if status >= 400 {
			return ProbeResult{Output: fmt.Sprintf("HTTP probe failed with statuscode: %d", status)}, nil
		}
		return ProbeResult{Success: true}, nil
	case probe.TCPSocket != nil:
		port := probe.TCPSocket.Port
		switch {
		case !listening(port):
			return ProbeResult{Output: fmt.Sprintf("dial tcp %s: connect: connection refused", hostPort(ip, port))}, nil
		case forced:
			return ProbeResult{Output: fmt.Sprintf("dial tcp %s: i/o timeout", hostPort(ip, port))}, nil
		}
		return ProbeResult{Success: true}, nil
	case probe.Exec != nil:
		if forced {
			knob := EnvFailReadiness
			if probe.Type == LivenessProbe {
				knob = EnvFailLivenessAfter
			}
			return ProbeResult{Output: "kubesim: probe failure requested by " + knob}, nil
		}
		return c.execProbeLocked(probe.Exec.Command, elapsed), nil
	}
	return ProbeResult{}, errorf(InvalidArgument, "probe must have a handler")
}

// execProbeLocked runs an exec probe's command symbolically at elapsed since start.
func (c *container) execProbeLocked(command []string, elapsed time.Duration) ProbeResult {
	b := c.beh
	if len(command) == 0 {
		return ProbeResult{Output: "exec probe has no command"}
	}
	bin := path.Base(command[0])
	if !slices.Contains(b.fam.tools, bin) && !slices.Contains(b.fam.servers, bin) {
		return ProbeResult{Output: fmt.Sprintf("OCI runtime exec failed: exec failed: unable to start container process: exec: %q: executable file not found in $PATH: unknown", command[0])}
	}
	if bin == "redis-cli" {
		if !b.serves || elapsed < b.startDelay {
			return ProbeResult{Output: "Could not connect to Redis at 127.0.0.1:6379: Connection refused"}
		}
		return ProbeResult{Success: true, Output: "PONG"}
	}
	src := shellQuote(command)
	if (bin == "sh" || bin == "bash" || bin == "ash") && len(command) >= 3 && command[1] == "-c" {
		src = command[2]
	}
	env := b.environ()
	mounted := c.mountedAt(c.startedAt.Add(elapsed))
	st := &shellState{fam: b.fam, files: c.filesAt(elapsed), environ: env, mounted: mounted}
	var out []string
	st.runList(parseStatements(lex(src, lookupEnv(env))), func(e scriptEvent) {
		switch e.kind {
		case evLog:
			out = append(out, e.text)
		case evFile:
			out = append(out, fileLines(mounted[e.text])...)
		}
	})
	ok := st.status == 0 && !st.forever && !st.serves
	return ProbeResult{Success: ok, Output: strings.Join(out, "\n")}
}

// filesAt is the set of files the container's command has created and not removed by elapsed.
func (c *container) filesAt(elapsed time.Duration) map[string]bool {
	files := map[string]bool{}
	for f := range c.beh.files {
		files[f] = true // the volumes' files: there from the start, read-only
	}
	s := c.beh.script
	if s == nil {
		return files
	}
	names := map[string]bool{}
	for _, e := range s.events {
		if e.kind == evTouch || e.kind == evRemove {
			names[e.text] = true
		}
	}
	if s.loop != nil {
		for _, e := range s.loop.events {
			if e.kind == evTouch || e.kind == evRemove {
				names[e.text] = true
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(names)) {
		if s.fileExists(f, elapsed) {
			files[f] = true
		}
	}
	return files
}

func hostPort(ip string, port int32) string { return fmt.Sprintf("%s:%d", ip, port) }

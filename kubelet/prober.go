// prober.go: startup, liveness and readiness probes (pkg/kubelet/prober: the probe manager and one
// worker per container and probe).
//
//	ensureProbes(w, r, spec, c)   start the probe workers of a newly running container
//	runDueProbes(ctx)             run the probes whose period came round
//	(*containerRecord).ready / startupPassed / failedProbe   what the results mean for the pod
//	ProbeThreshold, DefaultProbeThreshold   when a run of results changes a probe's result
//
// Each worker probes every periodSeconds, starting initialDelaySeconds after the container started.
// A result flips only after failureThreshold consecutive failures or successThreshold consecutive
// successes. Before their first result, readiness counts as failed (not ready), liveness as passed,
// and startup as not yet started. While a startup probe has not passed, the liveness and readiness
// probes do not run: that is what the startup probe is for (a slow starter is not killed by its
// liveness probe). A failed liveness or startup probe makes the kubelet kill the container, which
// then restarts according to the pod's restartPolicy; a failed readiness probe only takes the pod
// out of Ready (and so out of its Services' endpoints).
package kubelet

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

// probeKind is one of the three probes, named as in Kubernetes' events.
type probeKind string

const (
	probeStartup   probeKind = "startup"
	probeLiveness  probeKind = "liveness"
	probeReadiness probeKind = "readiness"
)

// probeWorker probes one container with one probe. Only the pod side touches it, except that its
// timer's callback appends it to Kubelet.probesDue (under mu).
type probeWorker struct {
	kind        probeKind
	spec        *api.Probe
	w           *podWorker
	r           *containerRecord
	containerID string
	timer       clock.Timer
	stopped     bool

	successes, failures int32
	result              *bool  // nil until the first threshold is crossed
	output              string // the last failure's output
}

// ProbeThreshold decides whether a run of consecutive results of one kind (run successes when
// success, else run failures), the last one just in, changes a probe's result to that kind.
// Kubernetes' rule (pkg/kubelet/prober/worker.go) is DefaultProbeThreshold: only once the run
// reaches the probe's successThreshold or failureThreshold (each at least 1).
type ProbeThreshold func(p *api.Probe, success bool, run int32) bool

// DefaultProbeThreshold is Kubernetes' rule.
func DefaultProbeThreshold(p *api.Probe, success bool, run int32) bool {
	if success {
		return run >= max(p.SuccessThreshold, 1)
	}
	return run >= max(p.FailureThreshold, 1)
}

// ensureProbes starts the workers of a running container the first time the kubelet sees it.
func (k *Kubelet) ensureProbes(w *podWorker, r *containerRecord, spec *api.Container, containerID string, startedAt time.Time) {
	for _, p := range []struct {
		kind probeKind
		spec *api.Probe
	}{{probeStartup, spec.StartupProbe}, {probeLiveness, spec.LivenessProbe}, {probeReadiness, spec.ReadinessProbe}} {
		if p.spec == nil {
			continue
		}
		if pw := r.probes[p.kind]; pw != nil && pw.containerID == containerID {
			continue
		}
		pw := &probeWorker{kind: p.kind, spec: p.spec, w: w, r: r, containerID: containerID}
		if r.probes == nil {
			r.probes = map[probeKind]*probeWorker{} // made for containers with probes only
		}
		r.probes[p.kind] = pw
		delay := time.Duration(p.spec.InitialDelaySeconds)*time.Second - k.clock.Since(startedAt)
		k.scheduleProbe(pw, max(delay, 0))
	}
}

func (k *Kubelet) scheduleProbe(pw *probeWorker, d time.Duration) {
	pw.timer = k.clock.AfterFunc(d, func() {
		k.mu.Lock()
		k.probesDue = append(k.probesDue, pw)
		k.mu.Unlock()
		k.nudge(sidePod)
	})
}

// stopProbesOf stops a container's probe workers (it stopped; a restart gets new ones).
func (k *Kubelet) stopProbesOf(r *containerRecord) {
	for kind, pw := range r.probes {
		pw.stopped = true
		if pw.timer != nil {
			pw.timer.Stop()
		}
		delete(r.probes, kind)
	}
}

// stopProbes stops every probe of a pod.
func (k *Kubelet) stopProbes(w *podWorker) {
	for _, r := range w.containers {
		k.stopProbesOf(r)
	}
}

// runDueProbes runs every probe whose timer fired. A probe result that changes something queues the
// pod for a sync; the probe itself is not a unit of work.
func (k *Kubelet) runDueProbes(ctx context.Context) {
	k.mu.Lock()
	due := k.probesDue
	k.probesDue = nil
	k.mu.Unlock()
	for _, pw := range due {
		if pw.stopped {
			continue
		}
		k.runProbe(ctx, pw)
		if !pw.stopped {
			k.scheduleProbe(pw, time.Duration(pw.spec.PeriodSeconds)*time.Second)
		}
	}
}

// runProbe runs one probe attempt and applies the thresholds.
func (k *Kubelet) runProbe(ctx context.Context, pw *probeWorker) {
	r := pw.r
	if pw.kind != probeStartup && !r.startupPassed() {
		return // the startup probe gates the others
	}
	if pw.kind == probeStartup && r.startupPassed() {
		return // a startup probe stops once it has passed
	}
	probe, err := runtimeProbe(pw.kind, pw.spec, r.spec, pw.w.podIP)
	if err != nil {
		// The prober could not even build the request (a named port the container does not
		// declare): the attempt is thrown away, and the result stays where it was.
		k.recorder.Eventf(ctx, pw.w.pod, api.EventTypeWarning, "Unhealthy", "%s probe errored and resulted in unknown state: %v", capitalize(string(pw.kind)), err)
		return
	}
	var res fakeruntime.ProbeResult
	_, _, err = k.call(func() (err error) {
		res, err = k.runtime.ProbeContainer(ctx, pw.containerID, probe)
		return err
	})
	if err != nil {
		return // the runtime itself failed; the PLEG reports that
	}
	before := pw.result
	crossed := k.cfg.ProbeThreshold
	if crossed == nil {
		crossed = DefaultProbeThreshold
	}
	if res.Success {
		pw.successes, pw.failures = pw.successes+1, 0
		if crossed(pw.spec, true, pw.successes) {
			pw.result = api.Ptr(true)
		}
	} else {
		pw.failures, pw.successes = pw.failures+1, 0
		pw.output = res.Output
		k.recorder.Eventf(ctx, pw.w.pod, api.EventTypeWarning, "Unhealthy", "%s probe failed: %s", capitalize(string(pw.kind)), res.Output)
		if crossed(pw.spec, false, pw.failures) {
			pw.result = api.Ptr(false)
		}
	}
	if (before == nil) != (pw.result == nil) || before != nil && *before != *pw.result {
		k.record("probe", "pods/"+pw.w.key, "", "%s probe of %s in %s: %s", pw.kind, r.name, pw.w.key, probeVerdict(pw))
		k.enqueue(pw.w.key)
	}
}

func probeVerdict(pw *probeWorker) string {
	if *pw.result {
		return "success"
	}
	return "failure after " + itoa(pw.failures) + " consecutive failures: " + pw.output
}

// runtimeProbe translates the Pod API's probe into the runtime's, aimed at the probe's host, or host
// (the pod's IP) without one; the fake runtime answers for the container either way. A
// port given by name is the container's port of that name, or a number written as a string
// (ResolveContainerPort in pkg/probe); anything else is an error, in its words.
func runtimeProbe(kind probeKind, p *api.Probe, c *api.Container, host string) (*fakeruntime.Probe, error) {
	out := &fakeruntime.Probe{Host: host, Type: map[probeKind]fakeruntime.ProbeType{probeStartup: fakeruntime.StartupProbe,
		probeLiveness: fakeruntime.LivenessProbe, probeReadiness: fakeruntime.ReadinessProbe}[kind]}
	switch {
	case p.Exec != nil:
		out.Exec = &fakeruntime.ExecAction{Command: p.Exec.Command}
	case p.HTTPGet != nil:
		port, err := containerPort(p.HTTPGet.Port, c)
		if err != nil {
			return nil, err
		}
		out.HTTPGet = &fakeruntime.HTTPGetAction{Path: p.HTTPGet.Path, Port: port}
		out.Host = cmp.Or(p.HTTPGet.Host, host)
	case p.TCPSocket != nil:
		port, err := containerPort(p.TCPSocket.Port, c)
		if err != nil {
			return nil, err
		}
		out.TCPSocket = &fakeruntime.TCPSocketAction{Port: port}
		out.Host = cmp.Or(p.TCPSocket.Host, host)
	}
	return out, nil
}

// containerPort resolves a probe's port: a number, a port name of the container, or a number
// written as a string.
func containerPort(port api.IntOrString, c *api.Container) (int32, error) {
	n := port.IntValue()
	if port.Type == api.StringType {
		n = -1
		for _, cp := range c.Ports {
			if cp.Name == port.StrVal {
				n = int(cp.ContainerPort)
				break
			}
		}
		if n < 0 {
			v, err := strconv.Atoi(port.StrVal)
			if err != nil {
				return 0, err
			}
			n = v
		}
	}
	if n <= 0 || n >= 65536 {
		return 0, fmt.Errorf("invalid port number: %v", n)
	}
	return int32(n), nil
}

// startupPassed: no startup probe, or it has succeeded.
func (r *containerRecord) startupPassed() bool {
	return r.passed(probeStartup, r.spec != nil && r.spec.StartupProbe != nil)
}

// ready: no readiness probe, or its last result is success.
func (r *containerRecord) ready() bool {
	return r.passed(probeReadiness, r.spec != nil && r.spec.ReadinessProbe != nil)
}

// passed: the container has no such probe, or the probe's result is success.
func (r *containerRecord) passed(kind probeKind, has bool) bool {
	if !has {
		return true
	}
	pw := r.probes[kind]
	return pw != nil && pw.result != nil && *pw.result
}

// failedProbe names the probe (liveness or startup) whose failure means the container must be
// killed, and its output.
func (r *containerRecord) failedProbe() (probeKind, string) {
	for _, kind := range []probeKind{probeStartup, probeLiveness} {
		if pw := r.probes[kind]; pw != nil && pw.result != nil && !*pw.result {
			return kind, pw.output
		}
	}
	return "", ""
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// runtime_state.go: what the kubelet knows of its runtime's health (pkg/kubelet/runtime.go, and
// updateRuntimeUp in pkg/kubelet/kubelet.go).
//
//	updateRuntimeUp(ctx)      every 5s: ask the runtime for its status; an answer is a sign of life
//	runtimeErrors(h, now)     why the runtime is not usable, as the Ready condition reports it
//
// The kubelet does not wait for a failed call to decide that its runtime is gone: it remembers when
// the runtime last answered Status with RuntimeReady, and 30 seconds (maxWaitForContainerRuntime)
// after that it reports `container runtime is down`. A containerd that refuses connections and one
// that hangs look the same from here: no recent answer. The PLEG's own health check (pleg.go) joins
// in after 3 minutes without a relist, and the node's Ready message then lists both, as
// utilerrors.NewAggregate prints them: `[container runtime is down, PLEG is not healthy: ...]`.
package kubelet

import (
	"context"
	"fmt"
	"time"

	fakeruntime "kubesim/runtime"
)

const (
	// runtimeUpPeriod is how often updateRuntimeUp runs (wait.Until in Kubelet.Run): 5 s after the
	// previous check returned.
	runtimeUpPeriod = 5 * time.Second
	// maxWaitForContainerRuntime is how long the runtime may go without answering before the
	// kubelet reports it down.
	maxWaitForContainerRuntime = 30 * time.Second
)

// updateRuntimeUp asks the runtime for its status. Only an answer with RuntimeReady true counts as a
// sync; a failed call is logged and changes nothing else, so it is time that makes the runtime "down".
func (k *Kubelet) updateRuntimeUp(ctx context.Context) {
	now := k.clock.Now()
	if now.Before(k.runtimeUpBusyUntil) {
		k.after(taskRuntimeUp, k.runtimeUpBusyUntil.Sub(now))
		return
	}
	var status *fakeruntime.RuntimeStatus
	var version *fakeruntime.VersionResponse
	took, pending, err := k.call(func() (err error) {
		// The Node's podCIDR, once the node IPAM controller has set it, goes to the runtime's CNI
		// (network.go); the runtime is ready for pods only then.
		if err = k.updatePodCIDR(ctx); err != nil {
			return err
		}
		if status, err = k.runtime.Status(ctx); err != nil {
			return err
		}
		if k.healthSnapshot().runtimeVersion == "" {
			version, err = k.runtime.Version(ctx)
		}
		return err
	})
	next := k.nextRuntimeCheck()
	if pending && err == nil {
		// As for the PLEG's relist: only a slow answer, not a failed call, holds the next check back.
		k.runtimeUpBusyUntil = now.Add(took)
		next += took
	}
	defer k.after(taskRuntimeUp, next)

	failure := ""
	notReady, networkErr := "", ""
	if err != nil {
		failure = err.Error()
	} else {
		networkErr = networkNotReady(status)
		for _, c := range status.Conditions {
			if !c.Status && c.Type == fakeruntime.RuntimeReady {
				// kubecontainer.RuntimeCondition's String form.
				notReady = fmt.Sprintf("container runtime not ready: %s=%t reason:%s message:%s", c.Type, c.Status, c.Reason, c.Message)
			}
		}
	}
	k.mu.Lock()
	wasFailing, firstCheck := k.health.runtimeCheckErr, !k.health.checked
	k.health.checked = true
	k.health.runtimeCheckErr = failure
	if err == nil {
		k.health.runtimeNotReady, k.health.networkNotReady = notReady, networkErr
		if notReady == "" {
			k.health.lastRuntimeSync = now.Add(took)
		}
	}
	if version != nil {
		k.health.runtimeVersion = version.RuntimeName + "://" + version.RuntimeVersion
	}
	k.mu.Unlock()
	if firstCheck {
		// Registration waits for this first check (nodeStep); in real time the node loop may already
		// be asleep with no timer armed, so wake it, or the node is never registered.
		k.nudge(sideNode)
	}
	switch {
	case failure != "" && failure != wasFailing:
		k.record("runtime", "", "", "container runtime sanity check failed after %s: %s", took.Round(time.Millisecond), failure)
	case failure == "" && wasFailing != "":
		k.record("runtime", "", "", "container runtime is up again")
	}
}

// runtimeErrors lists why the runtime cannot be used, in runtimeState.runtimeErrors' order: no
// recent answer, the PLEG's health check, a RuntimeReady condition that is false.
func runtimeErrors(h runtimeHealth, now time.Time) []string {
	var errs []string
	switch {
	case h.lastRuntimeSync.IsZero():
		errs = append(errs, "container runtime status check may not have completed yet")
	case !h.lastRuntimeSync.Add(maxWaitForContainerRuntime).After(now):
		errs = append(errs, "container runtime is down")
	}
	if err := plegHealthy(h.plegLastSeen, now); err != nil {
		errs = append(errs, "PLEG is not healthy: "+err.Error())
	}
	if h.runtimeNotReady != "" {
		errs = append(errs, h.runtimeNotReady)
	}
	return errs
}

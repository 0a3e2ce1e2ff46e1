// podinit.go: kubectl get pods' STATUS column (printPod in k8s.io/kubernetes
// pkg/printers/internalversion), and how far a pod's init containers have got in its words.
// Interface: PodStatusColumn, InitStatus.
//
// Init containers run one at a time, in order, each to a successful exit, before any app container
// starts. While they do, kubectl shows where initialization stands: Init:0/2 (the first is running
// or waiting to), Init:Error or Init:OOMKilled (one exited non-zero), Init:CrashLoopBackOff (one is
// waiting to be restarted), Init:ExitCode:N when there is no reason. Once every init container has
// exited 0, the app containers' states take over (PodInitializing while they are being created).
package api

import "fmt"

// InitStatus returns the STATUS kubectl prints for a pod still initializing, and whether it is; the
// first init container that has not exited 0 decides.
func InitStatus(p *Pod) (status string, initializing bool) {
	for i, cs := range p.Status.InitContainerStatuses {
		t, w := cs.State.Terminated, cs.State.Waiting
		switch {
		case t != nil && t.ExitCode == 0:
			continue
		case t != nil && t.Reason != "":
			return "Init:" + t.Reason, true
		case t != nil && t.Signal != 0:
			return fmt.Sprintf("Init:Signal:%d", t.Signal), true
		case t != nil:
			return fmt.Sprintf("Init:ExitCode:%d", t.ExitCode), true
		case w != nil && w.Reason != "" && w.Reason != "PodInitializing":
			return "Init:" + w.Reason, true
		default:
			return fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers)), true
		}
	}
	return "", false
}

// PodStatusColumn is the STATUS kubectl get pods prints: the pod's reason or phase, overridden by the
// init containers' progress while they run, else by the last app container with a waiting or
// terminated reason (Signal:N or ExitCode:N without one); a pod whose containers completed while
// another still runs reads Running or NotReady; a pod being deleted reads Terminating.
func PodStatusColumn(p *Pod) string {
	reason := string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	if init, initializing := InitStatus(p); initializing {
		reason = init
	} else {
		hasRunning := false
		for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
			c := p.Status.ContainerStatuses[i]
			switch {
			case c.State.Waiting != nil && c.State.Waiting.Reason != "":
				reason = c.State.Waiting.Reason
			case c.State.Terminated != nil && c.State.Terminated.Reason != "":
				reason = c.State.Terminated.Reason
			case c.State.Terminated != nil && c.State.Terminated.Signal != 0:
				reason = fmt.Sprintf("Signal:%d", c.State.Terminated.Signal)
			case c.State.Terminated != nil:
				reason = fmt.Sprintf("ExitCode:%d", c.State.Terminated.ExitCode)
			case c.Ready && c.State.Running != nil:
				hasRunning = true
			}
		}
		if reason == "Completed" && hasRunning {
			reason = "NotReady"
			if IsPodReady(p) {
				reason = "Running"
			}
		}
	}
	if p.DeletionTimestamp != nil {
		reason = "Terminating"
	}
	return reason
}

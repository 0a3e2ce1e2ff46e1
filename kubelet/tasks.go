// tasks.go: the kubelet's periodic tasks and how they become due.
//
//	task                  register, lease, node status, relist, runtime up, housekeeping
//	takeDue(t)            is t due? (and clear it)
//	after(t, d)           make t due again after d, on a clock timer
//
// Kubernetes runs each of these as a goroutine around wait.Until or a ticker. kubesim arms one clock
// timer per task instead, re-armed when the task has run (the period counts from the end of the last
// run, as wait.Until's does). On a virtual clock the step driver sees each of them as a timer it can
// jump to; the callback only marks the task due, and the work happens in Step.
package kubelet

import "time"

// task is one periodic job.
type task int

const (
	taskRegister     task = iota // register the Node (until it succeeds)
	taskLease                    // renew the Lease
	taskNodeStatus               // compute, and maybe write, the node status
	taskRelist                   // the PLEG relist
	taskRuntimeUp                // the runtime status check (updateRuntimeUp)
	taskHousekeeping             // eviction manager, images, orphan cleanup
	taskStatusSync               // the status manager's reconcile (pod_updates.go), armed only when needed
)

var allTasks = []task{taskRegister, taskLease, taskNodeStatus, taskRelist, taskRuntimeUp, taskHousekeeping}

// side says which loop runs a task.
func (t task) side() side {
	if t == taskRelist || t == taskRuntimeUp || t == taskHousekeeping || t == taskStatusSync {
		return sidePod
	}
	return sideNode
}

// takeDue reports whether t is due, and clears it.
func (k *Kubelet) takeDue(t task) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.due[t] || k.stopped {
		return false
	}
	k.due[t] = false
	return true
}

// after makes t due again once d has passed.
func (k *Kubelet) after(t task, d time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped {
		return
	}
	if old := k.timers[t]; old != nil {
		if k.realtime {
			// In real time, re-arm the task's timer rather than make another: the relist alone
			// re-arms every second on every node. (A virtual clock fires timers due at the same
			// instant in creation order, so in step mode a new timer keeps the story as it was.)
			old.Reset(d)
			return
		}
		old.Stop()
	}
	k.timers[t] = k.clock.AfterFunc(d, func() {
		k.mu.Lock()
		k.due[t] = true
		k.mu.Unlock()
		k.nudge(t.side())
	})
}

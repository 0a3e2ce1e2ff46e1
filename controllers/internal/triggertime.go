// triggertime.go: the endpoints.kubernetes.io/last-change-trigger-time annotation that the Endpoints
// and EndpointSlice controllers write (k8s.io/endpointslice util/trigger_time_tracker.go).
//
//	TriggerTimes.Compute(svc, pods)   the time of the earliest change since the Service's last sync
//	TriggerTimes.Forget(namespace, name)   the Service is gone
//	SetTriggerTime(annotations, t)    write the annotation (RFC 3339, UTC), or remove it for the zero time
//
// The annotation says when the change that an Endpoints or EndpointSlice write carries happened,
// so that one can measure how long it took to reach them (the apiserver's and kube-proxy's
// latency SLIs read it). A change is a Service's creation or a selected pod's Ready condition
// turning over (its lastTransitionTime). At each sync the tracker remembers the times it saw;
// a sync returns the earliest time that is newer than what the last sync saw, the Service's
// creation time at its first sync, and the zero time when nothing changed (a pod deleted, or
// one whose Ready condition did not move): then a write removes the annotation.
package internal

import (
	"sync"
	"time"

	"kubesim/api"
)

// AnnotationLastChangeTriggerTime is v1.EndpointsLastChangeTriggerTime.
const AnnotationLastChangeTriggerTime = "endpoints.kubernetes.io/last-change-trigger-time"

// TriggerTimes remembers, per Service, the trigger times its last sync saw. The zero value is ready
// to use; it is safe for concurrent use.
type TriggerTimes struct {
	mu       sync.Mutex
	services map[string]triggerState // by namespace/name
}

type triggerState struct {
	service time.Time
	pods    map[string]time.Time // by pod name: its Ready condition's lastTransitionTime
}

// Compute returns the Service's last-change trigger time for this sync, pods being the pods its
// selector matches, and remembers what it saw. Call it at every sync, before deciding whether to
// write anything, as both controllers do.
func (t *TriggerTimes) Compute(svc *api.Service, pods []*api.Pod) time.Time {
	key := svc.Namespace + "/" + svc.Name
	t.mu.Lock()
	defer t.mu.Unlock()
	last, known := t.services[key]
	var earliest time.Time
	earlier := func(at time.Time) {
		if earliest.IsZero() || at.Before(earliest) {
			earliest = at
		}
	}
	seen := triggerState{service: svc.CreationTimestamp.Time, pods: make(map[string]time.Time, len(pods))}
	for _, pod := range pods {
		at := podTriggerTime(pod)
		if at.IsZero() {
			continue
		}
		seen.pods[pod.Name] = at
		if at.After(last.pods[pod.Name]) {
			earlier(at)
		}
	}
	if seen.service.After(last.service) {
		earlier(seen.service)
	}
	if t.services == nil {
		t.services = map[string]triggerState{}
	}
	t.services[key] = seen
	if !known {
		return svc.CreationTimestamp.Time
	}
	return earliest
}

// Forget drops a deleted Service's state.
func (t *TriggerTimes) Forget(namespace, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.services, namespace+"/"+name)
}

// podTriggerTime is the lastTransitionTime of the pod's Ready condition, zero without one.
func podTriggerTime(pod *api.Pod) time.Time {
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodReady {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// SetTriggerTime writes the annotation into *annotations (making the map if needed), or removes it
// when at is zero.
func SetTriggerTime(annotations *map[string]string, at time.Time) {
	if at.IsZero() {
		delete(*annotations, AnnotationLastChangeTriggerTime)
		return
	}
	if *annotations == nil {
		*annotations = map[string]string{}
	}
	(*annotations)[AnnotationLastChangeTriggerTime] = at.UTC().Format(time.RFC3339Nano)
}

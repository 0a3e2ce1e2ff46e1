// tracer.go: Tracer, how a controller tells the trace what it saw and did, always under the identity
// the controller manager runs as.
//
//	Tracer{Component, Recorder}.Record(action, object, rv, format, args...)   a story-level line
//	Tracer{...}.Detail(action, object, rv, format, args...)                   a routine line (hidden by default)
package internal

import "kubesim/trace"

// User is the identity every controller of kube-controller-manager authenticates as. (With
// --use-service-account-credentials Kubernetes gives each controller its own service account;
// kubeadm's default, one shared identity, is what kubesim does.)
const User = "system:kube-controller-manager"

// Tracer records trace events for one controller. A nil Recorder records nothing.
type Tracer struct {
	Component string // "replicaset-controller", "deployment-controller"
	Recorder  *trace.Recorder
}

// Record writes a story-level line: a decision or a write.
func (t Tracer) Record(action, object, rv, format string, args ...any) {
	t.Recorder.Record(trace.Event{Component: t.Component, Actor: User, Action: action, Object: object,
		ResourceVersion: rv}.Msgf(format, args...))
}

// Detail writes a routine line (a watch event, a reconcile that found nothing to do), which the text
// narrator shows only when asked for every detail.
func (t Tracer) Detail(action, object, rv, format string, args ...any) {
	t.Recorder.Record(trace.Event{Component: t.Component, Actor: User, Action: action, Object: object,
		ResourceVersion: rv, Detail: true}.Msgf(format, args...))
}

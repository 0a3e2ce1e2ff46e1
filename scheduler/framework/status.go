// status.go: Status, what every plugin returns instead of an error string (framework.Status in
// k8s.io/kube-scheduler/framework). A nil *Status means success, so the common case costs nothing
// and reads as `return nil`. Interface: Code and its values, Status, NewStatus, AsStatus.
package framework

import (
	"errors"
	"strings"
)

// Code is the outcome of a plugin call. The scheduler decides what to do with a pod from the code
// alone: retry after an event (Unschedulable), not bother preempting (UnschedulableAndUnresolvable),
// back off and log (Error), or ignore the plugin for this pod (Skip).
type Code int

const (
	// Success: the plugin is happy. A nil *Status has this code.
	Success Code = iota
	// Error: something went wrong inside the plugin or the scheduler; the pod is retried after a backoff.
	Error
	// Unschedulable: the pod does not fit now, but preempting lower-priority pods might help.
	Unschedulable
	// UnschedulableAndUnresolvable: the pod does not fit and removing pods would not change that
	// (a taint, a label, a node too small). Preemption skips such nodes.
	UnschedulableAndUnresolvable
	// Skip: returned by PreFilter or PreScore, it says "nothing to do for this pod": the plugin's
	// Filter or Score is then not called at all.
	Skip
)

var codeNames = [...]string{"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Skip"}

func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "Unknown"
}

// Status is a code, the reasons behind it (each one is counted separately in the "0/3 nodes are
// available" message), an optional underlying error, and the plugin that returned it.
type Status struct {
	code    Code
	reasons []string
	err     error
	plugin  string
}

// NewStatus returns a Status with the given code and reasons.
func NewStatus(code Code, reasons ...string) *Status {
	return &Status{code: code, reasons: reasons}
}

// AsStatus wraps an error as an Error status; a nil error gives a nil (success) status.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; a nil status is Success.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// Reasons returns the reasons, one per failed check.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	return s.reasons
}

// Message is the reasons joined with ", ".
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.reasons, ", ")
}

// IsSuccess reports whether the code is Success.
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsSkip reports whether the code is Skip.
func (s *Status) IsSkip() bool { return s.Code() == Skip }

// IsRejected reports whether the pod was turned down (Unschedulable or UnschedulableAndUnresolvable)
// rather than hit by an error.
func (s *Status) IsRejected() bool {
	c := s.Code()
	return c == Unschedulable || c == UnschedulableAndUnresolvable
}

// Plugin is the name of the plugin that returned the status, set by the framework.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin records which plugin returned s and returns s.
func (s *Status) WithPlugin(name string) *Status {
	if s != nil {
		s.plugin = name
	}
	return s
}

// AsError returns nil for success, otherwise an error carrying the message.
func (s *Status) AsError() error {
	if s.IsSuccess() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

func (s *Status) String() string {
	if s.IsSuccess() {
		return "Success"
	}
	if msg := s.Message(); msg != "" {
		return s.code.String() + ": " + msg
	}
	return s.code.String()
}

// event.go: Event (core/v1), the record "kubectl describe" and "kubectl get events" show: Scheduled,
// Pulling, Started, FailedScheduling, BackOff. Components write them through an event recorder, which
// aggregates repeats by bumping count and lastTimestamp instead of creating new objects.
package api

// Event reports something that happened to an object.
type Event struct {
	TypeMeta       `json:",inline"`
	ObjectMeta     `json:"metadata,omitempty"`
	InvolvedObject ObjectReference `json:"involvedObject"`
	Reason         string          `json:"reason,omitempty"`
	Message        string          `json:"message,omitempty"`
	Source         EventSource     `json:"source,omitempty"`
	FirstTimestamp Time            `json:"firstTimestamp,omitempty"`
	LastTimestamp  Time            `json:"lastTimestamp,omitempty"`
	Count          int32           `json:"count,omitempty"`
	Type           string          `json:"type,omitempty"`
	EventTime      MicroTime       `json:"eventTime,omitempty"`
	Action         string          `json:"action,omitempty"`
	// ReportingController keeps its Go name from k8s.io/api although the JSON field is reportingComponent.
	ReportingController string `json:"reportingComponent"`
	ReportingInstance   string `json:"reportingInstance"`
}

// Event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// EventSource is the component (and host, for kubelets) that reported an event.
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

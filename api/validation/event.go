// event.go: Event validation (k8s.io/kubernetes pkg/apis/core/validation ValidateEventCreate and
// legacyValidateEvent). Interface: ValidateEvent.
//
// core/v1 Events come in two styles. An old-style event (no eventTime, what "kubectl describe"
// shows and kubesim's recorder writes) is checked only for being in its object's namespace. A
// new-style event (eventTime set, the events.k8s.io shape) must also say who reported it
// (reportingComponent, reportingInstance), what was done (action) and why (reason).
package validation

import (
	"fmt"

	"kubesim/api"
	"kubesim/api/field"
)

// The length limits of new-style events.
const (
	eventReportingInstanceLimit = 128
	eventActionLimit            = 128
	eventReasonLimit            = 128
	eventNoteLimit              = 1024
)

// ValidateEvent checks an Event on create.
func ValidateEvent(ev *api.Event) field.ErrorList {
	errs := ValidateObjectMeta(&ev.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	involvedNS := field.NewPath("involvedObject", "namespace")
	if ev.EventTime.IsZero() {
		// An event about a cluster-scoped object (a Node) lives in "default".
		if (ev.InvolvedObject.Namespace == "" && ev.Namespace != "" && ev.Namespace != api.NamespaceDefault) ||
			(ev.InvolvedObject.Namespace != "" && ev.Namespace != ev.InvolvedObject.Namespace) {
			errs = append(errs, field.Invalid(involvedNS, ev.InvolvedObject.Namespace, "does not match event.namespace"))
		}
		return errs
	}
	if ev.InvolvedObject.Namespace == "" && ev.Namespace != api.NamespaceDefault && ev.Namespace != api.NamespaceSystem {
		errs = append(errs, field.Invalid(involvedNS, ev.InvolvedObject.Namespace, "does not match event.namespace"))
	}
	reporting := field.NewPath("reportingComponent")
	if ev.ReportingController == "" {
		errs = append(errs, field.Required(reporting, ""))
	} else {
		errs = append(errs, ValidateLabelName(ev.ReportingController, reporting)...)
	}
	errs = append(errs, validateEventString(ev.ReportingInstance, eventReportingInstanceLimit, field.NewPath("reportingInstance"))...)
	errs = append(errs, validateEventString(ev.Action, eventActionLimit, field.NewPath("action"))...)
	errs = append(errs, validateEventString(ev.Reason, eventReasonLimit, field.NewPath("reason"))...)
	if len(ev.Message) > eventNoteLimit {
		errs = append(errs, field.Invalid(field.NewPath("message"), "", fmt.Sprintf("can have at most %v characters", eventNoteLimit)))
	}
	return errs
}

func validateEventString(value string, limit int, path *field.Path) field.ErrorList {
	switch {
	case value == "":
		return field.ErrorList{field.Required(path, "")}
	case len(value) > limit:
		return field.ErrorList{field.Invalid(path, "", fmt.Sprintf("can have at most %v characters", limit))}
	}
	return nil
}

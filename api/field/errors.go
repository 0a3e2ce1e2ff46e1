// errors.go: Error and ErrorList, the result of validation, worded as Kubernetes words them.
// Constructors: Required, Invalid, NotSupported, Duplicate, TooLong, Forbidden, NotFound.
package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType says what kind of wrong a field is. The values are the reason strings Kubernetes puts in
// metav1.StatusCause.type, so they reach clients unchanged.
type ErrorType string

const (
	// ErrorTypeRequired: a value that must be given is empty, zero or missing.
	ErrorTypeRequired ErrorType = "FieldValueRequired"
	// ErrorTypeInvalid: a value is malformed or out of range.
	ErrorTypeInvalid ErrorType = "FieldValueInvalid"
	// ErrorTypeNotSupported: a value is not one of an enumeration's members.
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	// ErrorTypeDuplicate: a value that must be unique in its list appears twice.
	ErrorTypeDuplicate ErrorType = "FieldValueDuplicate"
	// ErrorTypeTooLong: a value is longer than allowed; the message leaves the value out.
	ErrorTypeTooLong ErrorType = "FieldValueTooLong"
	// ErrorTypeForbidden: a well-formed value that is not allowed here or now (an immutable field
	// changed, a field set that only makes sense with another).
	ErrorTypeForbidden ErrorType = "FieldValueForbidden"
	// ErrorTypeNotFound: a value refers to something that does not exist.
	ErrorTypeNotFound ErrorType = "FieldValueNotFound"
)

// String is the human words for the type, as they appear in a message after the field path.
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeNotFound:
		return "Not found"
	default:
		return fmt.Sprintf("<unknown error %q>", string(t))
	}
}

// Error is one thing wrong with one field.
type Error struct {
	Type     ErrorType
	Field    string // the path, rendered: "spec.template.spec.containers[0].image"
	BadValue any    // the offending value, shown in the message unless the type omits it
	Detail   string // why, in Kubernetes' words; may be empty
}

// Error renders "<field>: <body>", e.g.
// `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
func (e *Error) Error() string {
	return e.Field + ": " + e.ErrorBody()
}

// ErrorBody is the message without the field path; it is what a StatusCause carries as its message.
func (e *Error) ErrorBody() string {
	s := e.Type.String()
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong:
		// These say nothing about the value: it is missing, beside the point, or too big to print.
	default:
		s += ": " + renderValue(e.BadValue)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// renderValue prints a bad value the way Kubernetes does: numbers and booleans bare, strings quoted,
// anything else (maps, structs, typed strings) as JSON.
func renderValue(v any) string {
	switch t := v.(type) {
	case int, int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// Required reports a missing value: `spec.containers: Required value`.
func Required(path *Path, detail string) *Error {
	return &Error{Type: ErrorTypeRequired, Field: path.String(), BadValue: "", Detail: detail}
}

// Invalid reports a malformed or out-of-range value:
// `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
func Invalid(path *Path, value any, detail string) *Error {
	return &Error{Type: ErrorTypeInvalid, Field: path.String(), BadValue: value, Detail: detail}
}

// NotSupported reports a value outside an enumeration, listing the members in the order given:
// `spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`.
func NotSupported[T ~string](path *Path, value any, supported []T) *Error {
	detail := ""
	if len(supported) > 0 {
		quoted := make([]string, len(supported))
		for i, s := range supported {
			quoted[i] = strconv.Quote(string(s))
		}
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &Error{Type: ErrorTypeNotSupported, Field: path.String(), BadValue: value, Detail: detail}
}

// Duplicate reports a value that must be unique in its list: `spec.containers[1].name: Duplicate value: "web"`.
func Duplicate(path *Path, value any) *Error {
	return &Error{Type: ErrorTypeDuplicate, Field: path.String(), BadValue: value}
}

// TooLong reports a value longer than maxLength bytes, without repeating the value:
// `metadata.annotations: Too long: may not be more than 262144 bytes`.
func TooLong(path *Path, maxLength int) *Error {
	unit := "bytes"
	if maxLength == 1 {
		unit = "byte"
	}
	return &Error{Type: ErrorTypeTooLong, Field: path.String(), BadValue: "<value omitted>",
		Detail: fmt.Sprintf("may not be more than %d %s", maxLength, unit)}
}

// Forbidden reports a value that is well formed but not allowed here:
// `spec.selector: Forbidden: field is immutable`.
func Forbidden(path *Path, detail string) *Error {
	return &Error{Type: ErrorTypeForbidden, Field: path.String(), BadValue: "", Detail: detail}
}

// NotFound reports a reference to something that does not exist: `roleRef.name: Not found: "viewer"`.
func NotFound(path *Path, value any) *Error {
	return &Error{Type: ErrorTypeNotFound, Field: path.String(), BadValue: value}
}

// ErrorList is what every validator returns; empty means valid. Validators build it with append, so
// a nil list and an empty list mean the same.
type ErrorList []*Error

// Error joins the errors as Kubernetes' aggregate error does (and so as kubectl prints them after
// `is invalid: `): one error alone, several in brackets separated by ", ", each distinct message once.
//
// ErrorList has an Error method so it prints well, but do not return a nil ErrorList as an error: an
// interface holding a nil ErrorList is not nil. Use ToAggregate for that.
func (list ErrorList) Error() string {
	seen := make(map[string]bool, len(list))
	msgs := make([]string, 0, len(list))
	for _, e := range list {
		msg := e.Error()
		if seen[msg] {
			continue
		}
		seen[msg] = true
		msgs = append(msgs, msg)
	}
	switch len(msgs) {
	case 0:
		return ""
	case 1:
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// ToAggregate returns the list as an error, or nil when the list is empty.
func (list ErrorList) ToAggregate() error {
	if len(list) == 0 {
		return nil
	}
	return list
}

// errors.go: errors shaped like the gRPC statuses a CRI call returns.
//
//	Error{Code, Message}   prints as "rpc error: code = NotFound desc = ..."
//	CodeOf(err)            the code of any error (OK for nil, Unknown for foreign errors)
//	IsNotFound(err)        shorthand the kubelet uses when a container vanished
//
// A real kubelet sees these as *status.Status values from google.golang.org/grpc and inspects them with
// status.Code(err); the codes and the printed shape here are the same, so messages in events and logs
// read exactly like a real node's.

package fakeruntime

import (
	"context"
	"errors"
	"fmt"
)

// Code is a gRPC status code.
type Code int

// The gRPC codes a container runtime returns.
const (
	OK                 Code = 0
	Canceled           Code = 1
	Unknown            Code = 2
	InvalidArgument    Code = 3
	DeadlineExceeded   Code = 4
	NotFound           Code = 5
	AlreadyExists      Code = 6
	FailedPrecondition Code = 9
	Unavailable        Code = 14
)

var codeNames = map[Code]string{
	OK: "OK", Canceled: "Canceled", Unknown: "Unknown", InvalidArgument: "InvalidArgument",
	DeadlineExceeded: "DeadlineExceeded", NotFound: "NotFound", AlreadyExists: "AlreadyExists",
	FailedPrecondition: "FailedPrecondition", Unavailable: "Unavailable",
}

func (c Code) String() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// Error is a failed CRI call: a gRPC code and containerd's message.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("rpc error: code = %s desc = %s", e.Code, e.Message)
}

// errorf builds an *Error.
func errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns err's gRPC code: OK for nil, the code of an *Error anywhere in the chain, Canceled or
// DeadlineExceeded for the context errors, and Unknown for anything else (as grpc's status.Code does).
func CodeOf(err error) Code {
	var e *Error
	switch {
	case err == nil:
		return OK
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return DeadlineExceeded
	}
	return Unknown
}

// IsNotFound reports whether err says the sandbox, container or image does not exist.
func IsNotFound(err error) bool { return CodeOf(err) == NotFound }

// ctxError turns a caller's ended context into the status a gRPC client reports for it.
func ctxError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errorf(DeadlineExceeded, "context deadline exceeded")
	}
	return errorf(Canceled, "context canceled")
}

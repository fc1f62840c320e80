// Package errs carries errors that know what the client may be told.
//
// A domain package returns an *Error when the failure is the caller's (bad input, missing
// credentials, a limit); everything else is an internal error whose cause is logged and never
// shown. The api package is the one place that turns an error into an HTTP status and envelope.
package errs

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an error for the client. The zero value is Internal, so an error nobody
// classified is treated as a server error, never as the client's fault.
type Kind int

const (
	Internal Kind = iota
	BadRequest
	TooLarge
	Unauthorized
	Forbidden
	NotFound
	UnknownAction
	MethodNotAllowed
	RateLimited
	LimitReached
	// TooMany is a count limit of the account (such as active embed tokens): the request is
	// refused until something is removed, so it is a 400, not a 429 to retry.
	TooMany
)

// Error is an error with a message that is safe to show to the client and an optional
// internal cause that is only logged.
type Error struct {
	Kind       Kind
	Safe       string        // human sentence for the client; never holds a secret
	Cause      error         // internal detail, logged only
	RetryAfter time.Duration // for RateLimited and LimitReached
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %v", e.Safe, e.Cause)
	}
	return e.Safe
}

func (e *Error) Unwrap() error { return e.Cause }

// New returns an error of the given kind with a client-safe message.
func New(kind Kind, safe string) *Error { return &Error{Kind: kind, Safe: safe} }

// Newf is New with formatting.
func Newf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Safe: fmt.Sprintf(format, args...)}
}

// Wrap returns an error of the given kind that keeps cause for the logs.
func Wrap(kind Kind, safe string, cause error) *Error {
	return &Error{Kind: kind, Safe: safe, Cause: cause}
}

// As finds the first *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// KindOf reports the kind of err; Internal when err carries none.
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	return Internal
}

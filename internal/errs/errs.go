// Package errs carries errors that know what the client may be told.
//
// A domain package returns an *Error when the failure is the caller's (bad input, missing
// credentials, a limit); everything else is an internal error whose cause is logged and never
// shown. The api package is the one place that turns an error into an HTTP status and envelope.
//
// Safe is English, and stays what the JSON API and the CLI show. An error a person can meet
// in the dashboard may also carry Key, a message key of the i18n catalog (prefixed "err.",
// such as "err.embed.domains_required"), with Args to format that message: the dashboard
// shows the catalog's message in the user's language when it has the key, and Safe
// otherwise. Build such an error with Coded, or add a key to one with WithKey:
//
//	errs.Coded(errs.BadRequest, "err.embed.budget_decimals",
//		"The daily budget %s has more than %d decimal places.", shown(in), 4)
//
// The catalog's messages take the same arguments in the same order (use %[2]s and the like
// where a language needs another order). Args are shown to the user, so like Safe they never
// hold a secret.
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
	// Unavailable is a dependency the request needs (the database) not answering: a 503
	// with Retry-After, since the same request succeeds once it is back; it is the
	// server's state, not the client's fault, so its code stays server_error.
	Unavailable
)

// Error is an error with a message that is safe to show to the client and an optional
// internal cause that is only logged.
type Error struct {
	Kind       Kind
	Safe       string        // human sentence for the client; never holds a secret
	Cause      error         // internal detail, logged only
	RetryAfter time.Duration // for RateLimited and LimitReached
	// Key is the i18n catalog key of Safe's message ("" = none), for front ends that speak
	// the user's language; Args are its arguments, in the catalog message's order.
	Key  string
	Args []any
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

// Coded returns an error of the given kind whose client message is format formatted with
// args (English, in Safe) and, in other languages, the catalog's message of key formatted
// with the same args.
func Coded(kind Kind, key, format string, args ...any) *Error {
	safe := format
	if len(args) > 0 {
		safe = fmt.Sprintf(format, args...)
	}
	return &Error{Kind: kind, Safe: safe, Key: key, Args: args}
}

// WithKey sets e's catalog key and its arguments, which may differ from those Safe was
// formatted with, and returns e.
func (e *Error) WithKey(key string, args ...any) *Error {
	e.Key, e.Args = key, args
	return e
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

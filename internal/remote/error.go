// Package remote posts JSON to one endpoint of a model provider (chat, embeddings, rerank)
// and turns every way that can fail into an *Error that says whether trying again could help
// and never carries the API key. The language-model clients (internal/llm) and the embedding
// and rerank clients (internal/embedding) share it; retries and the circuit breaker around it
// are internal/circuit's.
package remote

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrTimeout is the cause of an attempt that ran out of its own timeout while the caller's
// context was still live. It is its own sentinel, not context.DeadlineExceeded, so that a
// caller testing for its own deadline is never misled by ours; such errors are Retryable.
var ErrTimeout = errors.New("attempt timed out")

// ErrCircuitOpen is the cause of a call refused without calling the provider while its
// circuit breaker is open.
var ErrCircuitOpen = errors.New("provider circuit open")

// ErrUnavailable matches (errors.Is) every *Error that says the provider is down, slow or
// overloaded rather than that the request was wrong: a Retryable error (timeout, 408, 409,
// 429, 5xx, a broken connection) or a refusal of the open breaker. A caller that can do
// without the provider (keyword search instead of vectors, the built-in engine instead of a
// model) degrades on it.
var ErrUnavailable = errors.New("provider unavailable")

// Error is a failed provider call.
type Error struct {
	API        string // what was called, for messages: "llm", "embedding", "rerank"
	Provider   string
	Status     int           // HTTP status; 0 for transport errors, timeouts and local checks
	RetryAfter time.Duration // from the Retry-After header, when the provider sent one
	Retryable  bool          // 408, 409, 429, 5xx, transport errors and per-attempt timeouts
	Err        error
}

func (e *Error) Error() string {
	name := e.Provider
	if e.API != "" {
		name = e.API + " " + name
	}
	if e.Status != 0 {
		return fmt.Sprintf("%s: status %d: %v", name, e.Status, e.Err)
	}
	return fmt.Sprintf("%s: %v", name, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrUnavailable) true for an outage.
func (e *Error) Is(target error) bool {
	return target == ErrUnavailable && (e.Retryable || errors.Is(e.Err, ErrCircuitOpen))
}

// RetryHint implements circuit.Retryable.
func (e *Error) RetryHint() (bool, time.Duration) { return e.Retryable, e.RetryAfter }

// Refused is the open breaker's fail-fast error; RetryAfter tells the caller when a probe
// will be allowed.
func Refused(api, provider string, wait time.Duration) *Error {
	return &Error{API: api, Provider: provider, RetryAfter: wait, Err: ErrCircuitOpen}
}

// Canceled wraps the caller's context error so errors.Is finds context.Canceled or
// context.DeadlineExceeded, and also the cause the caller gave, if any. It is never
// Retryable.
func Canceled(api, provider string, ctx context.Context) *Error {
	err := ctx.Err()
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, err) {
		err = fmt.Errorf("%w: %w", err, cause)
	}
	return &Error{API: api, Provider: provider, Err: err}
}

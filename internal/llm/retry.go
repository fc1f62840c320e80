package llm

import (
	"context"
	"errors"
	"time"

	"svc/internal/circuit"
	"svc/internal/remote"
)

// retrier retries the Retryable errors of the client it wraps (circuit.Do): backoff with
// full jitter, the provider's Retry-After honoured up to 30 s, no wait past the caller's
// deadline.
type retrier struct {
	next   Client
	policy circuit.Retry
}

func newRetrier(next Client, provider string, maxRetries int, clk circuit.Clock) *retrier {
	return &retrier{next: next, policy: circuit.Retry{
		MaxRetries: maxRetries,
		Clock:      clk,
		Stopped:    func(ctx context.Context) error { return remote.Canceled(api, provider, ctx) },
	}}
}

func (r *retrier) Complete(ctx context.Context, req Request) (Response, error) {
	if req.Stream == nil {
		return circuit.Do(ctx, r.policy, func(ctx context.Context) (Response, error) {
			return r.next.Complete(ctx, req)
		})
	}
	// A stream is tried again only while nothing of it was handed out: the caller may have
	// shown the text, and a second attempt would write another. The broken stream's own
	// error is returned, still Retryable, so the breaker counts it as the outage it is.
	started := false
	onText := req.Stream
	req.Stream = func(s string) {
		started = true
		onText(s)
	}
	resp, err := circuit.Do(ctx, r.policy, func(ctx context.Context) (Response, error) {
		resp, err := r.next.Complete(ctx, req)
		if err != nil && started {
			return resp, &afterText{err}
		}
		return resp, err
	})
	var cut *afterText
	if errors.As(err, &cut) {
		err = cut.err
	}
	return resp, err
}

// afterText is a stream's failure after text was handed out: never retried.
type afterText struct{ err error }

func (e *afterText) Error() string                    { return e.err.Error() }
func (e *afterText) Unwrap() error                    { return e.err }
func (e *afterText) RetryHint() (bool, time.Duration) { return false, 0 }

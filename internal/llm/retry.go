package llm

import (
	"context"

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
	return circuit.Do(ctx, r.policy, func(ctx context.Context) (Response, error) {
		return r.next.Complete(ctx, req)
	})
}

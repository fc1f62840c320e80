package llm

import (
	"context"
	"time"

	"svc/internal/circuit"
	"svc/internal/remote"
)

// breaker stops calling a provider that keeps failing (circuit.Breaker), so requests fail in
// microseconds instead of each waiting out timeouts and retries; the built-in engine answers
// meanwhile. One Complete counts once, however many attempts its retries made.
type breaker struct {
	next     Client
	provider string
	cb       *circuit.Breaker
}

func newBreaker(next Client, provider string, threshold int, cooldown time.Duration, now func() time.Time) *breaker {
	return &breaker{next: next, provider: provider, cb: circuit.NewBreaker(threshold, cooldown, now)}
}

func (b *breaker) Complete(ctx context.Context, req Request) (Response, error) {
	return circuit.Call(ctx, b.cb, func(ctx context.Context) (Response, error) {
		return b.next.Complete(ctx, req)
	}, func(wait time.Duration) error {
		return remote.Refused(api, b.provider, wait)
	})
}

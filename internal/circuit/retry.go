package circuit

import (
	"context"
	"time"
)

// Backoff bounds. Full jitter (a uniform wait between 0 and the exponential ceiling) keeps
// many callers that failed together from retrying together.
const (
	BackoffBase = 500 * time.Millisecond
	BackoffCap  = 8 * time.Second
	// MaxHonouredRetryAfter caps a service's Retry-After, so one answer cannot park a call
	// for minutes; the caller's deadline usually ends it sooner anyway.
	MaxHonouredRetryAfter = 30 * time.Second
)

// Retry says how often and how patiently a call is tried again.
type Retry struct {
	// MaxRetries is the number of attempts after the first: 0 (or less) is no retry.
	MaxRetries int
	Clock      Clock
	// Stopped makes the error returned when the caller's context ends during a wait; nil
	// returns the context's error.
	Stopped func(ctx context.Context) error
}

// Do calls call until it succeeds, fails with an error that is not Retryable, the retries
// run out, or the caller's context ends. It gives up at once, with the call's own error,
// when the wait before the next attempt would pass the caller's deadline: waiting only to be
// cut off would hide the service's error behind a context error.
func Do[T any](ctx context.Context, r Retry, call func(context.Context) (T, error)) (T, error) {
	for attempt := 0; ; attempt++ {
		v, err := call(ctx)
		if err == nil {
			return v, nil
		}
		retry, after := hint(err)
		if !retry || attempt >= r.MaxRetries || ctx.Err() != nil {
			return v, err
		}
		wait := r.Wait(attempt, after)
		if deadline, ok := ctx.Deadline(); ok && !r.Clock.Now().Add(wait).Before(deadline) {
			return v, err
		}
		if r.Clock.Sleep(ctx, wait) != nil {
			var zero T
			if r.Stopped != nil {
				return zero, r.Stopped(ctx)
			}
			return zero, ctx.Err()
		}
	}
}

// Wait is the pause before the retry that follows attempt (0-based): the service's
// Retry-After when it sent one, capped, else exponential backoff with full jitter.
func (r Retry) Wait(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, MaxHonouredRetryAfter)
	}
	ceiling := BackoffBase
	for i := 0; i < attempt && ceiling < BackoffCap; i++ {
		ceiling *= 2
	}
	return r.Clock.Jitter(min(ceiling, BackoffCap))
}

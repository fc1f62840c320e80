package llm

import (
	"context"
	"errors"
	"time"
)

// Backoff bounds. Full jitter (a uniform wait between 0 and the exponential ceiling) keeps
// many callers that failed together from retrying together.
const (
	backoffBase = 500 * time.Millisecond
	backoffCap  = 8 * time.Second
	// maxHonouredRetryAfter caps a provider's Retry-After, so one answer cannot park a
	// request for minutes; the caller's deadline usually ends it sooner anyway.
	maxHonouredRetryAfter = 30 * time.Second
)

// retrier retries the Retryable errors of the client it wraps.
type retrier struct {
	next       Client
	provider   string
	maxRetries int
	clk        clock
}

func newRetrier(next Client, provider string, maxRetries int, clk clock) *retrier {
	return &retrier{next: next, provider: provider, maxRetries: maxRetries, clk: clk}
}

func (r *retrier) Complete(ctx context.Context, req Request) (Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := r.next.Complete(ctx, req)
		if err == nil {
			return resp, nil
		}
		var e *Error
		if attempt >= r.maxRetries || ctx.Err() != nil || !errors.As(err, &e) || !e.Retryable {
			return resp, err
		}
		wait := r.wait(attempt, e.RetryAfter)
		// Waiting past the caller's deadline only to be cut off would hide the provider's
		// error behind a context error; give the caller the real reason now.
		if deadline, ok := ctx.Deadline(); ok && !r.clk.now().Add(wait).Before(deadline) {
			return resp, err
		}
		if r.clk.sleep(ctx, wait) != nil {
			return Response{}, canceled(r.provider, ctx)
		}
	}
}

// wait is the pause before the retry that follows attempt (0-based): the provider's
// Retry-After when it sent one, else exponential backoff with full jitter.
func (r *retrier) wait(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, maxHonouredRetryAfter)
	}
	ceiling := backoffBase
	for i := 0; i < attempt && ceiling < backoffCap; i++ {
		ceiling *= 2
	}
	return r.clk.jitter(min(ceiling, backoffCap))
}

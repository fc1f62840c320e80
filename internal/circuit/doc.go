// Package circuit keeps calls to a remote service that is failing short: Retry tries a call
// again with exponential backoff and full jitter (or the wait the service asked for), and a
// Breaker stops calling a service that keeps failing, so that callers fail in microseconds
// instead of each waiting out timeouts and retries, and the service gets room to recover.
//
// Both decide from the error alone, through the Retryable interface, so the package knows
// nothing of HTTP or of any provider. The language-model clients (internal/llm) and the
// embedding and rerank clients (internal/embedding) share it.
package circuit

import (
	"errors"
	"time"
)

// Retryable is implemented by errors that know whether another attempt could succeed:
// timeouts, rate limits, server trouble and broken connections say "not now"; a refused
// request says "not this". after is the wait the service asked for, 0 when it did not say.
type Retryable interface {
	RetryHint() (retry bool, after time.Duration)
}

// hint reads err's Retryable answer; an error that does not implement it is never retried.
func hint(err error) (retry bool, after time.Duration) {
	var r Retryable
	if errors.As(err, &r) {
		return r.RetryHint()
	}
	return false, 0
}

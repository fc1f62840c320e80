package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrTimeout is the cause of an attempt that ran out of Config.Timeout while the caller's
// context was still live. It is its own sentinel, not context.DeadlineExceeded, so that a
// caller testing for its own deadline is never misled by ours; such errors are Retryable.
var ErrTimeout = errors.New("llm: attempt timed out")

// maxMessageBytes bounds the provider's message kept in an error: enough to diagnose, not
// enough to drag a whole HTML error page into the logs.
const maxMessageBytes = 300

// maxRetryAfter clamps absurd Retry-After values before they become durations.
const maxRetryAfter = 24 * time.Hour

// contextError says why an attempt ended when one of the contexts did: the caller's (returned
// as is, never retried) or the per-attempt timeout (retried). It returns nil when neither
// context is done, so the provider's own error decides.
func contextError(provider string, caller, attempt context.Context, timeout time.Duration) error {
	if caller.Err() != nil {
		return canceled(provider, caller)
	}
	if attempt.Err() != nil {
		return &Error{Provider: provider, Retryable: true, Err: fmt.Errorf("%w after %s", ErrTimeout, timeout)}
	}
	return nil
}

// canceled wraps the caller's context error so errors.Is finds context.Canceled or
// context.DeadlineExceeded, and also the cause the caller gave, if any.
func canceled(provider string, ctx context.Context) *Error {
	err := ctx.Err()
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, err) {
		err = fmt.Errorf("%w: %w", err, cause)
	}
	return &Error{Provider: provider, Err: err}
}

// statusError is an HTTP error answer of the provider.
func statusError(provider, apiKey string, status int, header http.Header, message string, now time.Time) *Error {
	message = clean(message, apiKey)
	if message == "" {
		message = http.StatusText(status)
	}
	if message == "" {
		message = "error response"
	}
	return &Error{
		Provider:   provider,
		Status:     status,
		RetryAfter: parseRetryAfter(header, now),
		Retryable:  retryableStatus(status),
		Err:        errors.New(message),
	}
}

// otherError is a failure with no HTTP answer: the connection, or a body that could not be
// read or decoded.
func otherError(provider, apiKey string, err error) *Error {
	return &Error{Provider: provider, Retryable: transient(err), Err: &redacted{msg: clean(err.Error(), apiKey), err: err}}
}

// retryableStatus lists the answers that say "not now" rather than "not this": timeouts,
// conflicts, rate limits and server trouble (including Anthropic's 529 overloaded).
func retryableStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

// transient reports a transport failure worth another attempt: the connection failed or
// broke off. A 200 whose JSON does not decode is not one, nor a redirect refused for
// leaving the provider's origin: sending it again would not help.
func transient(err error) bool {
	if errors.Is(err, errCrossOriginRedirect) {
		return false
	}
	var ue *url.Error
	var ne net.Error
	return errors.As(err, &ue) || errors.As(err, &ne) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// parseRetryAfter reads how long the provider asked us to wait: retry-after-ms (OpenAI's
// finer-grained header) wins over Retry-After, which is seconds or an HTTP date. Zero means
// the provider did not say, or said something unreadable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return clampWait(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return clampWait(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return clampWait(float64(t.Sub(now)))
	}
	return 0
}

// clampWait turns nanoseconds into a duration in [0, maxRetryAfter]; NaN and negatives are 0.
func clampWait(ns float64) time.Duration {
	if math.IsNaN(ns) || ns <= 0 {
		return 0
	}
	if ns >= float64(maxRetryAfter) {
		return maxRetryAfter
	}
	return time.Duration(ns)
}

// clean makes a provider or transport message safe to log: the API key removed wherever it
// appears (a gateway may echo the request), one line, and short.
func clean(msg, apiKey string) string {
	if apiKey != "" {
		msg = strings.ReplaceAll(msg, apiKey, "[redacted]")
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) > maxMessageBytes {
		cut := maxMessageBytes
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// redacted shows a cleaned message while keeping the original error for errors.Is and
// errors.As (net.Error, *url.Error), whose own text may carry the key.
type redacted struct {
	msg string
	err error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

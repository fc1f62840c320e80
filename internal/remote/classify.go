package remote

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

// maxMessageBytes bounds the provider's message kept in an error: enough to diagnose, not
// enough to drag a whole HTML error page into the logs.
const maxMessageBytes = 300

// MaxRetryAfter clamps absurd Retry-After values before they become durations.
const MaxRetryAfter = 24 * time.Hour

// fail maps a failed exchange to *Error: the caller's context, then the attempt's timeout,
// then the provider's HTTP answer, then the transport.
func (e *Endpoint) fail(caller, attempt context.Context, ans answer, err error) *Error {
	if caller.Err() != nil {
		return Canceled(e.api, e.provider, caller)
	}
	if attempt.Err() != nil {
		return e.errorf(true, "%w after %s", ErrTimeout, e.timeout)
	}
	if ans.status >= 400 {
		var message string
		if e.message != nil {
			message = e.message(ans.body)
		}
		return statusError(e.api, e.provider, e.secret, ans.status, ans.header, message, e.now())
	}
	return &Error{API: e.api, Provider: e.provider, Retryable: transient(err), Err: &redacted{msg: Clean(err.Error(), e.secret), err: err}}
}

// statusError is an HTTP error answer of the provider.
func statusError(api, provider, secret string, status int, header http.Header, message string, now time.Time) *Error {
	message = Clean(message, secret)
	if message == "" {
		message = http.StatusText(status)
	}
	if message == "" {
		message = "error response"
	}
	return &Error{
		API:        api,
		Provider:   provider,
		Status:     status,
		RetryAfter: ParseRetryAfter(header, now),
		Retryable:  RetryableStatus(status),
		Err:        errors.New(message),
	}
}

// errorf is a failure of this endpoint with no HTTP status.
func (e *Endpoint) errorf(retryable bool, format string, args ...any) *Error {
	return &Error{API: e.api, Provider: e.provider, Retryable: retryable, Err: fmt.Errorf(format, args...)}
}

// RetryableStatus lists the answers that say "not now" rather than "not this": timeouts,
// conflicts, rate limits and server trouble (including Anthropic's 529 overloaded).
func RetryableStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

// transient reports a transport failure worth another attempt: the connection failed or
// broke off. A 200 whose JSON does not decode is not one, nor a redirect refused for
// leaving the provider's origin: sending it again would not help.
func transient(err error) bool {
	if errors.Is(err, ErrCrossOriginRedirect) {
		return false
	}
	var ue *url.Error
	var ne net.Error
	return errors.As(err, &ue) || errors.As(err, &ne) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// ParseRetryAfter reads how long the provider asked us to wait: retry-after-ms (OpenAI's
// finer-grained header) wins over Retry-After, which is seconds or an HTTP date. Zero means
// the provider did not say, or said something unreadable.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
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

// clampWait turns nanoseconds into a duration in [0, MaxRetryAfter]; NaN and negatives are 0.
func clampWait(ns float64) time.Duration {
	if math.IsNaN(ns) || ns <= 0 {
		return 0
	}
	if ns >= float64(MaxRetryAfter) {
		return MaxRetryAfter
	}
	return time.Duration(ns)
}

// Clean makes a provider or transport message safe to log: the secret removed wherever it
// appears (a gateway may echo the request), one line, and short.
func Clean(msg, secret string) string {
	if secret != "" {
		msg = strings.ReplaceAll(msg, secret, "[redacted]")
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

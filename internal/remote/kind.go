package remote

import (
	"context"
	"errors"
	"net/http"
)

// The kinds ErrorKind sorts errors into: the label values the chat clients' and the
// embedding clients' metrics share.
const (
	KindCircuitOpen = "circuit_open" // refused without calling
	KindTimeout     = "timeout"      // an attempt ran out of its own timeout
	KindCanceled    = "canceled"     // the caller's context ended
	KindRateLimited = "rate_limited" // 429
	KindClientError = "client_error" // another 4xx
	KindServerError = "server_error" // 5xx
	KindTransport   = "transport"    // no HTTP answer, or a check of ours on the answer
	KindOther       = "other"
)

// ErrorKinds lists every kind ErrorKind returns for an error, for metrics to bound their
// label values by.
var ErrorKinds = []string{KindTimeout, KindRateLimited, KindClientError, KindServerError, KindTransport,
	KindCircuitOpen, KindCanceled, KindOther}

// ErrorKind sorts a provider call's error for monitoring: "" for none, else one of
// ErrorKinds.
func ErrorKind(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrCircuitOpen):
		return KindCircuitOpen
	case errors.Is(err, ErrTimeout):
		return KindTimeout
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return KindCanceled
	case !errors.As(err, &e):
		return KindOther
	case e.Status == http.StatusTooManyRequests:
		return KindRateLimited
	case e.Status >= 500:
		return KindServerError
	case e.Status >= 400:
		return KindClientError
	case e.Status == 0:
		return KindTransport
	default:
		return KindOther
	}
}

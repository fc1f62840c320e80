package remote

import (
	"context"
	"errors"
	"net/http"
)

// ErrorKind sorts a provider call's error for monitoring: "" for none, "circuit_open"
// (refused without calling), "timeout" (an attempt ran out of its own timeout), "canceled"
// (the caller's context ended), "rate_limited" (429), "client_error" (another 4xx),
// "server_error" (5xx), "transport" (no HTTP answer, or a check of ours on the answer), or
// "other". The chat clients' and the embedding clients' metrics share these labels.
func ErrorKind(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrCircuitOpen):
		return "circuit_open"
	case errors.Is(err, ErrTimeout):
		return "timeout"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "canceled"
	case !errors.As(err, &e):
		return "other"
	case e.Status == http.StatusTooManyRequests:
		return "rate_limited"
	case e.Status >= 500:
		return "server_error"
	case e.Status >= 400:
		return "client_error"
	case e.Status == 0:
		return "transport"
	default:
		return "other"
	}
}

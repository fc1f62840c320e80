package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"svc/internal/errs"
	"svc/internal/ratelimit"
)

// envelope is the body of every response (SERVICE.md, Response envelope).
type envelope struct {
	Success bool   `json:"success"`
	Data    any    `json:"data,omitempty"`
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeData(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: data})
}

// statusOf maps an error kind to its HTTP status and error code (DECISIONS.md, HTTP).
func statusOf(k errs.Kind) (int, string) {
	switch k {
	case errs.BadRequest:
		return http.StatusBadRequest, "bad_request"
	case errs.TooLarge:
		return http.StatusRequestEntityTooLarge, "bad_request"
	case errs.Unauthorized:
		return http.StatusUnauthorized, "unauthorized"
	case errs.Forbidden:
		return http.StatusForbidden, "forbidden"
	case errs.NotFound:
		return http.StatusNotFound, "not_found"
	case errs.UnknownAction:
		return http.StatusNotFound, "unknown_action"
	case errs.MethodNotAllowed:
		return http.StatusMethodNotAllowed, "method_not_allowed"
	case errs.RateLimited:
		return http.StatusTooManyRequests, "rate_limited"
	case errs.LimitReached:
		return http.StatusTooManyRequests, "limit_reached"
	case errs.TooMany:
		return http.StatusBadRequest, "limit_reached"
	case errs.Unavailable:
		return http.StatusServiceUnavailable, "server_error"
	default:
		return http.StatusInternalServerError, "server_error"
	}
}

// statusClientClosed is nginx's "client closed request": the status a request that ended
// because its client went away is answered and logged with. It is no server error.
const statusClientClosed = 499

// clientClosedMessage is what a client that half-closed its connection (and so can still
// read) is told; one that closed it reads nothing.
const clientClosedMessage = "The request was cancelled because the client closed the connection before the answer was ready; keep the connection open until the response arrives."

// writeError is the one place an error becomes a response. Client errors show their safe
// message; a request the client abandoned is a 499 logged at debug level; anything else is
// logged with its cause and shown as a generic server error.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if errs.ClientGone(r.Context(), err) {
		s.log.DebugContext(r.Context(), "request cancelled by the client", slog.String("request_id", requestID(r.Context())),
			slog.String("path", r.URL.Path), slog.Any("error", err))
		writeJSON(w, statusClientClosed, envelope{Success: false, Error: "bad_request", Message: clientClosedMessage})
		return
	}
	status, env, retry := s.describeError(r, err)
	if retry != "" {
		w.Header().Set("Retry-After", retry)
	}
	writeJSON(w, status, env)
}

// describeError is what writeError answers for err: the status, the envelope and the
// Retry-After value ("" for none). It logs the error as its status deserves. A streamed
// send that fails after its stream started sends the envelope's error and message as an
// event instead.
func (s *Server) describeError(r *http.Request, err error) (int, envelope, string) {
	kind := errs.KindOf(err)
	if s.unavailable(r.Context(), kind, err) {
		err = &errs.Error{Kind: errs.Unavailable, Safe: unavailableMessage, Cause: err}
		kind = errs.Unavailable
	}
	status, code := statusOf(kind)
	msg := "Something went wrong on our side. Please retry shortly."
	retry := ""
	if kind == errs.Unavailable {
		// Always a Retry-After: DECISIONS.md's 503 promises the client when to come back.
		wait := unavailableRetry
		if e, ok := errs.As(err); ok && e.RetryAfter > 0 {
			wait = e.RetryAfter
		}
		retry = strconv.Itoa(ratelimit.RetryAfterSeconds(wait))
	}
	if e, ok := errs.As(err); ok && e.Kind != errs.Internal {
		msg = e.Safe
		if e.RetryAfter > 0 || e.Kind == errs.RateLimited || e.Kind == errs.LimitReached {
			retry = strconv.Itoa(ratelimit.RetryAfterSeconds(e.RetryAfter))
		}
	}
	switch {
	case status == http.StatusServiceUnavailable:
		s.log.ErrorContext(r.Context(), "request failed: the database does not answer", slog.String("request_id", requestID(r.Context())),
			slog.String("path", r.URL.Path), slog.Any("error", err))
	case status >= 500:
		s.log.ErrorContext(r.Context(), "request failed", slog.String("request_id", requestID(r.Context())),
			slog.String("path", r.URL.Path), slog.Any("error", err))
	default:
		s.log.DebugContext(r.Context(), "request refused", slog.String("request_id", requestID(r.Context())),
			slog.String("code", code), slog.Any("error", err))
	}
	return status, envelope{Success: false, Error: code, Message: msg}, retry
}

// isMaxBytes reports whether err comes from http.MaxBytesReader.
func isMaxBytes(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}

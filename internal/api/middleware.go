package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"svc/internal/redact"
)

type ctxKey int

const requestIDKey ctxKey = 1

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// validRequestID accepts a caller's id only when it is short and plain, so that it can be
// logged and echoed safely, and not shaped like a secret: a client must not be able to make
// us write a key into every log line of its request, or send one back.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 || redact.Contains(id) {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusRecorder remembers what was written, for the access log and for the panic handler.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// answered is the status the request is counted with (access log and metrics) once its
// handler has returned: the one written, or, when none was, statusClientClosed if the client
// had gone (the handler gave up without a word) and else 200 (what net/http sends for a
// handler that wrote nothing).
func (r *statusRecorder) answered(ctx context.Context) int {
	switch {
	case r.status != 0:
		return r.status
	case ctx.Err() != nil:
		return statusClientClosed
	default:
		return http.StatusOK
	}
}

// Unwrap lets http.ResponseController reach the connection's Flush and write deadlines,
// which a streamed send needs.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// maxBody is the largest request body accepted (DECISIONS.md: 64 KiB, else 413).
const maxBody = 64 << 10

// maxDashboardBody bounds the dashboard's requests, whose knowledge-base upload takes several
// files (up to 50 MiB together); the dashboard applies tighter limits of its own per form.
const maxDashboardBody = 64 << 20

// logPath is the path as logged: the dashboard's one-time links carry their secret in the
// path, and a client can put a key there, so it is redacted here as well as by the
// logger's handler (which New installs).
func logPath(p string) string { return redact.String(p) }

// middleware wraps every request: request id, body limit, panic recovery and an access log
// line. The key and the body are never logged.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		ctx := context.WithValue(r.Context(), requestIDKey, id)
		r = r.WithContext(ctx)
		if r.Body != nil {
			limit := int64(maxBody)
			if strings.HasPrefix(r.URL.Path, "/dashboard/") {
				limit = maxDashboardBody
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(ctx, "panic", slog.String("request_id", id), slog.Any("panic", p),
					slog.String("stack", string(debug.Stack())))
				if rec.status == 0 {
					s.writeError(rec, r, fmt.Errorf("panic: %v", p))
				}
			}
			s.log.InfoContext(ctx, "http", slog.String("request_id", id), slog.String("method", r.Method),
				slog.String("path", logPath(r.URL.Path)), slog.Int("status", rec.answered(ctx)), slog.Int("bytes", rec.bytes),
				slog.Duration("duration", time.Since(start)), slog.String("remote", r.RemoteAddr))
		}()
		next.ServeHTTP(rec, r)
	})
}

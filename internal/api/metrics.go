package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"
)

// RequestObserver records every answered request (the service's metrics).
type RequestObserver interface {
	// ObserveRequest records one request by its route, which comes from a bounded set (see
	// Server.route), its status, and its duration.
	ObserveRequest(route string, status int, d time.Duration)
}

// Routes whose variable part is one of a known set are labelled per action, since a send
// and a sync differ by orders of magnitude; anything else keeps the router's pattern.
const (
	chatPattern  = "/api/v1/chat/{action}"
	embedPattern = "/api/v1/embed/{action}"
)

// routeLabels maps a known action to its route label: pattern with the action in place of
// "{action}" ("/api/v1/chat/send"). Built once, so labelling a request allocates nothing.
func routeLabels[V any](pattern string, actions map[string]V) map[string]string {
	prefix := strings.TrimSuffix(pattern, "{action}")
	out := make(map[string]string, len(actions))
	for n := range actions {
		out[n] = prefix + n
	}
	return out
}

// route is a request's metrics label: the pattern the router matched (never the raw path,
// which a client chooses), or the action's own route for a known chat, widget or KB action. An
// unknown action keeps the pattern, so no request can add a label value.
func (s *Server) route(r *http.Request) string {
	switch r.Pattern {
	case "":
		return "unmatched"
	case chatPattern:
		if l, ok := s.chatRoutes[r.PathValue("action")]; ok {
			return l
		}
	case embedPattern:
		if l, ok := s.embedRouteLabels[r.PathValue("action")]; ok {
			return l
		}
	case kbPattern:
		if l, ok := s.kbRouteLabels[r.PathValue("action")]; ok {
			return l
		}
	}
	return r.Pattern
}

// instrument times every request the router serves. It sits inside middleware, where the
// router sets r.Pattern on the very request it is given, and reads the status from the
// access log's recorder rather than wrapping the writer a second time.
func (s *Server) instrument(next http.Handler) http.Handler {
	if s.metrics == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec, ok := w.(*statusRecorder)
		if !ok {
			rec = &statusRecorder{ResponseWriter: w}
			w = rec
		}
		finished := false
		defer func() {
			status := http.StatusInternalServerError // a panic: middleware answers 500
			if finished {
				status = rec.answered(r.Context()) // as the access log counts it
			}
			s.metrics.ObserveRequest(s.route(r), status, time.Since(start))
		}()
		next.ServeHTTP(w, r)
		finished = true
	})
}

// MetricsEndpoint guards the metrics exposition h: GET or HEAD only, and, when token is
// not empty, only with Authorization: Bearer <token> (compared in constant time, over hashes
// so that not even the token's length leaks). Refusals use the API's envelope.
func MetricsEndpoint(h http.Handler, token string) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSON(w, http.StatusMethodNotAllowed, envelope{Error: "method_not_allowed", Message: "Use GET."})
			return
		}
		if token != "" {
			got := sha256.Sum256([]byte(bearerToken(r)))
			if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				writeJSON(w, http.StatusUnauthorized, envelope{Error: "unauthorized",
					Message: "The metrics token is required: send Authorization: Bearer <SVC_METRICS_TOKEN>."})
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// MetricsServer is the handler of the separate metrics listener (SVC_METRICS_ADDR):
// /metrics through MetricsEndpoint, and a 404 envelope for any other path.
func MetricsServer(h http.Handler, token string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", MetricsEndpoint(h, token))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, envelope{Error: "not_found", Message: "Only /metrics is served here."})
	})
	return mux
}

// bearerToken is the credential of an Authorization: Bearer header, or "".
func bearerToken(r *http.Request) string {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(rest)
}

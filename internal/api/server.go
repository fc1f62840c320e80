// Package api is the HTTP surface: routing, authentication, body decoding, the response
// envelope and the mapping from domain errors to statuses. Domain packages never see
// net/http; handlers translate between the wire types here and the domain calls.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"svc/internal/account"
	"svc/internal/chat"
	"svc/internal/crawl"
	"svc/internal/errs"
	"svc/internal/openapi"
	"svc/internal/ratelimit"
	"svc/internal/redact"
	"svc/internal/store"
	"svc/internal/studio"
)

// Deps are the collaborators of the HTTP server.
type Deps struct {
	Store    store.Store
	Accounts *account.Service
	Chat     *chat.Service
	Studio   *studio.Service
	// Crawls runs the KB API's crawlStart in the background: the process's on-demand crawls,
	// which the dashboard shares; nil answers crawlStart with 503.
	Crawls *crawl.Jobs
	// CrawlAllowPrivate is the crawler's AllowPrivate (SVC_CRAWL_ALLOW_PRIVATE): a start URL
	// on a loopback or private address is refused unless it is set.
	CrawlAllowPrivate bool
	// Limiter counts the embed surface's requests per client address and per token; it may
	// be the one chat uses, since their keys differ.
	Limiter ratelimit.Limiter
	// TrustedProxies are the networks whose X-Forwarded-For names the client (see clientip.Of).
	TrustedProxies []netip.Prefix
	// DemoPage, when set, is served at /demo/: a sample host page with the widget installed.
	DemoPage []byte
	// Dashboard, when set, serves /dashboard/ (the customer's web console) behind the same
	// request ids, access log and panic recovery as the API.
	Dashboard http.Handler
	// Preview, when set, lets the widget surface accept the dashboard's short-lived preview
	// tokens (svc_prev_…) in place of an embed token, from the service's own origin only, so
	// an owner can try a token's widget inside the dashboard.
	Preview PreviewAuthenticator
	// PublicURL is the service's public base URL: a preview page on it is on the service's
	// own origin even when a reverse proxy rewrites the Host header.
	PublicURL string
	// Metrics, when set, times every request by route and status.
	Metrics RequestObserver
	// MetricsHandler is served at /metrics when MetricsToken is set too, behind that bearer
	// token (MetricsEndpoint); without a token the main listener never serves it.
	MetricsHandler http.Handler
	MetricsToken   string
	// RedisPing, when set (SVC_REDIS_URL), asks the shared Redis whether it answers; /readyz
	// reports it as "ok" or "fallback", and as "off" without it.
	RedisPing func(context.Context) error
	Log       *slog.Logger
	Now       func() time.Time
}

// PreviewAuthenticator resolves a preview token to the embed token it previews and its
// account; an invalid, expired or revoked one is an errs.Unauthorized error.
type PreviewAuthenticator interface {
	AuthenticatePreview(ctx context.Context, token string) (account.EmbedCaller, error)
}

// Server serves the public API.
type Server struct {
	st           store.Store
	accounts     *account.Service
	chat         *chat.Service
	studio       *studio.Service
	limiter      ratelimit.Limiter
	trusted      []netip.Prefix
	demoPage     []byte
	preview      PreviewAuthenticator
	publicOrigin string // scheme://host of Deps.PublicURL, "" when unset
	redisPing    func(context.Context) error
	log          *slog.Logger
	now          func() time.Time
	actions      map[string]action
	embedActions map[string]embedAction
	kbActions    map[string]kbAction
	crawls       *crawl.Jobs
	// crawlAllowPrivate is Deps.CrawlAllowPrivate.
	crawlAllowPrivate bool
	handler           http.Handler
	// metrics times requests; chatRoutes and embedRouteLabels are its route labels per
	// known action.
	metrics          RequestObserver
	chatRoutes       map[string]string
	embedRouteLabels map[string]string
	kbRouteLabels    map[string]string
}

// handlerFunc is a handler that returns its error to the one place that renders errors.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error

// action is one Chat API action with the methods it answers.
type action struct {
	methods []string
	fn      handlerFunc
}

// New builds the server and its routes.
func New(d Deps) *Server {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	d.Log = redact.Logger(d.Log) // request values reach the log: no secret may (see redact)
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Limiter == nil {
		d.Limiter = ratelimit.NewMemory()
	}
	s := &Server{st: d.Store, accounts: d.Accounts, chat: d.Chat, studio: d.Studio, limiter: d.Limiter, trusted: d.TrustedProxies,
		demoPage: d.DemoPage, preview: d.Preview, publicOrigin: originOf(d.PublicURL), log: d.Log, now: d.Now,
		metrics: d.Metrics, redisPing: d.RedisPing, crawls: d.Crawls, crawlAllowPrivate: d.CrawlAllowPrivate}
	get, post := []string{http.MethodGet, http.MethodHead}, []string{http.MethodPost}
	s.actions = map[string]action{
		"start":        {get, s.start},
		"send":         {post, s.send},
		"suggestions":  {get, s.suggestions},
		"sync":         {get, s.sync},
		"feedback":     {post, s.feedback},
		"apiKey":       {get, s.apiKey},
		"usageSummary": {get, s.usageSummary},
		"getTone":      {get, s.getTone},

		"embedTokens":      {get, s.embedTokens},
		"embedTokenCreate": {post, s.embedTokenCreate},
		"embedTokenUpdate": {post, s.embedTokenUpdate},
		"embedTokenRevoke": {post, s.embedTokenRevoke},

		"marketingGenerate": {post, s.marketingGenerate},
	}
	s.embedActions = s.embedRoutes()
	s.kbActions = s.kbRoutes()
	mux := http.NewServeMux()
	s.chatRoutes = routeLabels(chatPattern, s.actions)
	s.embedRouteLabels = routeLabels(embedPattern, s.embedActions)
	s.kbRouteLabels = routeLabels(kbPattern, s.kbActions)
	mux.HandleFunc(chatPattern, func(w http.ResponseWriter, r *http.Request) {
		s.dispatch(w, r, r.PathValue("action"))
	})
	mux.HandleFunc(embedPattern, s.embedDispatch)
	mux.HandleFunc("/api/v1/intelligence/{op}", s.intelligence)
	mux.HandleFunc(kbPattern, s.kbDispatch)
	mux.HandleFunc("/widget.js", s.widgetScript)
	mux.HandleFunc("/widget/avatar/{file}", s.widgetAvatar)
	if len(s.demoPage) > 0 {
		mux.HandleFunc("/demo/", s.demo)
	}
	if d.Dashboard != nil {
		mux.Handle("/dashboard/", d.Dashboard)
		mux.Handle("/dashboard", d.Dashboard)
	}
	mux.HandleFunc("/api.php", s.legacy)
	mux.HandleFunc("/api/v1/openapi.json", s.openapi)
	mux.HandleFunc("/healthz", s.healthz)
	mux.HandleFunc("/readyz", s.readyz)
	if d.MetricsHandler != nil && d.MetricsToken != "" {
		mux.Handle("/metrics", MetricsEndpoint(d.MetricsHandler, d.MetricsToken))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, errs.New(errs.NotFound, "No such endpoint."))
	})
	s.handler = s.middleware(s.instrument(s.plainPaths(mux)))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// legacy serves /api.php?endpoint=chat&action=<action>, which SERVICE.md keeps working.
func (s *Server) legacy(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("endpoint") != "chat" {
		s.writeError(w, r, errs.New(errs.NotFound, "Unknown endpoint; use endpoint=chat."))
		return
	}
	if q.Get("action") == "" {
		s.writeError(w, r, errs.New(errs.BadRequest, "The action parameter is required."))
		return
	}
	s.dispatch(w, r, q.Get("action"))
}

// dispatch resolves the action, checks the method, authenticates, reads the parameters and
// runs the handler, in that order.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := s.actions[name]
	if !ok {
		s.writeError(w, r, errs.Newf(errs.UnknownAction, "Unknown action %q.", truncate(name, 40)))
		return
	}
	if !slices.Contains(a.methods, r.Method) {
		w.Header().Set("Allow", strings.Join(a.methods, ", "))
		s.writeError(w, r, errs.Newf(errs.MethodNotAllowed, "Use %s for %s.", a.methods[0], name))
		return
	}
	c, err := s.authenticate(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := readParams(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := a.fn(w, r, c, p); err != nil {
		s.writeError(w, r, err)
	}
}

// truncate shortens a value echoed in an error message to n characters, never inside one.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// authenticate reads the secret key from Authorization: Bearer or X-SVC-Key.
func (s *Server) authenticate(r *http.Request) (account.Caller, error) {
	key := ""
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, rest, ok := strings.Cut(strings.TrimSpace(h), " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			key = strings.TrimSpace(rest)
		}
	}
	if key == "" {
		key = strings.TrimSpace(r.Header.Get("X-SVC-Key"))
	}
	if key == "" {
		return account.Caller{}, errs.New(errs.Unauthorized, "An API key is required: send Authorization: Bearer <key>.")
	}
	return s.accounts.Authenticate(r.Context(), key)
}

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.writeError(w, r, errs.New(errs.MethodNotAllowed, "Use GET."))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.Document())
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeData(w, map[string]string{"status": "ok"})
}

// readyTimeout bounds each of /readyz's checks, so a prober gets its answer even from a
// database that hangs.
const readyTimeout = 2 * time.Second

// readyz is ready when the database answers: a replica that cannot reach it would fail every
// request, so a load balancer should take it out. Redis is reported but never makes it
// unready: without it each replica decides its limits in memory (ratelimit's fallback) and
// requests still succeed, so taking every replica out for a Redis outage would turn a
// degraded service into none.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.st.Ping(ctx); err != nil {
		if errs.ClientGone(r.Context(), err) {
			s.writeError(w, r, err) // the prober left: not the store's failure
			return
		}
		s.log.WarnContext(ctx, "not ready: the database does not answer", slog.Any("error", err))
		w.Header().Set("Retry-After", strconv.Itoa(ratelimit.RetryAfterSeconds(unavailableRetry)))
		writeJSON(w, http.StatusServiceUnavailable, envelope{Error: "server_error", Message: "The database is not reachable."})
		return
	}
	redis := "off"
	if s.redisPing != nil {
		redis = "ok"
		if err := s.redisPing(ctx); err != nil {
			// Logged by the limiter's health once per outage; not again per probe.
			redis = "fallback"
		}
	}
	writeData(w, map[string]string{"status": "ok", "database": "ok", "redis": redis})
}

// originOf is the scheme://host of a base URL, or "" when it has none.
func originOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// Package dashboard is the customer's web console under /dashboard/: server-rendered
// html/template pages, progressive enhancement with the vendored htmx and uPlot, every
// asset embedded. Pages work without JavaScript wherever a form suffices.
//
// Every request is judged in this order: security headers; the cross-origin check on
// anything that changes state (security.go); the session (session.go), then the role the
// route needs. Every resource is looked up within the signed-in account, so another
// account's id is a 404. All text comes from the i18n catalog in the user's language.
package dashboard

import (
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"svc/internal/account"
	"svc/internal/chat"
	"svc/internal/crawl"
	"svc/internal/i18n"
	"svc/internal/insights"
	"svc/internal/ratelimit"
	"svc/internal/studio"
	"svc/internal/testsets"
	"svc/internal/users"
)

// Deps are the dashboard's collaborators.
type Deps struct {
	Store    Store
	Users    *users.Service
	Accounts *account.Service
	Chat     *chat.Service
	Studio   *studio.Service
	// Tests keeps the owners' test sets (/dashboard/tests) and TestRunner runs them in the
	// background; both are required.
	Tests      *testsets.Service
	TestRunner *testsets.Runner
	// Crawler runs "crawl now"; nil hides the button.
	Crawler *crawl.Crawler
	// CrawlAllowPrivate is the crawler's AllowPrivate (SVC_CRAWL_ALLOW_PRIVATE): a site on a
	// loopback or private address is refused when it is added unless it is set.
	CrawlAllowPrivate bool
	// CrawlInterval is how often the scheduler re-crawls a site, shown as its schedule.
	CrawlInterval time.Duration
	// EmbedModel is the embedding model of semantic retrieval (SVC_EMBED_MODEL): the KB page
	// shows how much of the KB it has embedded. "" (no provider configured) shows nothing.
	EmbedModel string
	Catalog    *i18n.Catalog
	// Limiter throttles the dashboard's own costly actions (the try-it box, uploads).
	Limiter ratelimit.Limiter
	// PublicURL is the service's public base URL: links in mails, the widget snippet, the
	// curl examples, and whether cookies are Secure.
	PublicURL string
	// TrustedProxies are the networks whose X-Forwarded-For names the client.
	TrustedProxies []netip.Prefix
	Log            *slog.Logger
	Now            func() time.Time
}

// Server serves /dashboard/.
type Server struct {
	d       Deps
	st      Store
	cat     *i18n.Catalog
	log     *slog.Logger
	now     func() time.Time
	secure  bool // cookies carry Secure (the public URL is https)
	pages   *pageSet
	assets  *assetSet
	crawls  *crawlJobs
	formKey []byte // signs signed-out forms' tokens
	handler http.Handler
	// questions remembers how the overview's questions read (insights.Memo).
	questions *insights.Memo
}

// New builds the dashboard's handler.
func New(d Deps) (*Server, error) {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Limiter == nil {
		d.Limiter = ratelimit.NewMemory()
	}
	if d.Tests == nil || d.TestRunner == nil {
		return nil, errors.New("dashboard: Deps.Tests and Deps.TestRunner are required")
	}
	if d.Catalog == nil {
		c, err := i18n.Load()
		if err != nil {
			return nil, err
		}
		d.Catalog = c
	}
	s := &Server{d: d, st: d.Store, cat: d.Catalog, log: d.Log, now: d.Now, crawls: newCrawlJobs(), formKey: newFormKey()}
	if u, err := url.Parse(d.PublicURL); err == nil && u.Scheme == "https" {
		s.secure = true
	}
	var err error
	if s.questions, err = insights.NewMemo(overviewMemo); err != nil {
		return nil, err
	}
	if s.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	if s.pages, err = loadPages(s.assets); err != nil {
		return nil, err
	}
	s.handler = s.routes()
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

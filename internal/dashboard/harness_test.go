package dashboard_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/cli"
	"svc/internal/config"
	"svc/internal/demo/demotest"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/teststore"
	"svc/internal/users"
)

// harness is the whole service (API, widget surface and dashboard) as `svc serve` wires it,
// on a real SQLite file, behind a real HTTP server.
type harness struct {
	t        testing.TB
	srv      *httptest.Server
	st       store.Store
	accounts *account.Service
	users    *users.Service
	app      *cli.App
	cfg      config.Config
}

// harnessSetup is what newHarness's options may change before the service is wired.
type harnessSetup struct {
	cfg config.Config
	now func() time.Time // the clock of the store and every service; nil is time.Now
	// postgres serves on a PostgreSQL schema of the test's own instead of an SQLite file.
	postgres bool
	// followKB makes the test runner follow KB changes as serve does (Serve), starting a
	// regression run testDebounce after a change; testRunFinished is told of every run the
	// runner finished.
	followKB        bool
	testDebounce    time.Duration
	testRunFinished func(store.TestRun)
}

type harnessOpt func(*harnessSetup)

// withConfig changes the service's configuration.
func withConfig(f func(*config.Config)) harnessOpt {
	return func(s *harnessSetup) { f(&s.cfg) }
}

// onPostgres serves on PostgreSQL (teststore; the test skips when none answers), for the
// tests that show both stores answer alike.
func onPostgres() harnessOpt {
	return func(s *harnessSetup) { s.postgres = true }
}

// withRegressionRuns makes the test runner follow KB changes as serve does, a regression run
// starting debounce after a change, and tells finished of every run it finished.
func withRegressionRuns(debounce time.Duration, finished func(store.TestRun)) harnessOpt {
	return func(s *harnessSetup) { s.followKB, s.testDebounce, s.testRunFinished = true, debounce, finished }
}

// withClock puts the store and every service on the clock now (a test's fake clock).
func withClock(now func() time.Time) harnessOpt {
	return func(s *harnessSetup) { s.now = now }
}

func newHarness(t testing.TB, opts ...harnessOpt) *harness {
	t.Helper()
	h := &harness{t: t}
	var handler http.Handler
	h.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.ServeHTTP(w, r)
	}))
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.LLMProvider = "builtin"
	cfg.PublicURL = h.srv.URL
	cfg.CrawlAllowPrivate = true
	set := harnessSetup{cfg: cfg}
	for _, o := range opts {
		o(&set)
	}
	h.cfg = set.cfg
	if set.postgres {
		h.st = teststore.OpenPostgres(t, set.now)
	} else {
		st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{Now: set.now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		h.st = st
	}
	st := h.st
	h.accounts = account.New(st, set.now)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h.app, err = cli.NewApp(st, h.accounts, h.cfg, log, cli.AppOptions{Now: set.now, TestDebounce: set.testDebounce,
		TestRunFinished: set.testRunFinished})
	if err != nil {
		t.Fatal(err)
	}
	// Test runs started in the background end (marked failed when cut short) before the
	// store closes: cleanups run last registered first.
	t.Cleanup(h.app.TestRunner.Close)
	if set.followKB {
		h.app.TestRunner.Serve(context.Background())
	}
	handler = h.app.Handler
	h.users = h.app.Users
	return h
}

// on is the harness reporting to t, for the subtests of the test that made it: a subtest
// must not fail its parent's t.
func (h *harness) on(t testing.TB) *harness {
	c := *h
	c.t = t
	return &c
}

func ptr[T any](v T) *T { return &v }

// tenant creates an account with the demo KB, 5 USD and an owner, and returns the account,
// its secret key and the owner's e-mail and password.
func (h *harness) tenant(name string) (a store.Account, key, email, password string) {
	h.t.Helper()
	ctx := context.Background()
	a, key, err := h.accounts.Create(ctx, account.Settings{Name: ptr(name), BalanceMicro: ptr(int64(5_000_000))})
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.st.ImportDocuments(ctx, a.ID, demotest.Docs(h.t)); err != nil {
		h.t.Fatal(err)
	}
	email, password = h.user(a.ID, store.UserOwner)
	return a, key, email, password
}

// userSeq makes e-mails unique across the package's parallel tests.
var userSeq atomic.Int64

// user adds a user with a password to the account and returns its e-mail and password.
func (h *harness) user(accountID int64, role string) (email, password string) {
	h.t.Helper()
	email = strings.ToLower(role) + "-" + itoa(int(userSeq.Add(1))) + "-" + itoa(int(accountID)) + "@example.test"
	password = "correct horse battery"
	if _, _, err := h.users.AddUser(context.Background(), accountID, email, role, password); err != nil {
		h.t.Fatal(err)
	}
	return email, password
}

func itoa(n int) string { return strconv.Itoa(n) }

// browser is an HTTP client with a cookie jar that sends Origin on state changes, as a
// browser does, and does not follow redirects, so tests see the 303s.
type browser struct {
	h    *harness
	c    *http.Client
	lang string
}

func (h *harness) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{h: h, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// page is a response with its body read.
type page struct {
	Status int
	Header http.Header
	Body   string
}

func (b *browser) do(req *http.Request) page {
	b.h.t.Helper()
	if b.lang != "" {
		req.Header.Set("Accept-Language", b.lang)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}
}

// newGet is a request for a path of the server.
func (b *browser) newGet(path string) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, b.h.srv.URL+path, nil)
	return req
}

// newPost is a form sent as a same-origin browser page would (Origin set).
func (b *browser) newPost(path string, form url.Values) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, b.h.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.h.srv.URL)
	return req
}

// htmx marks a request as htmx sends it (HX-Request).
func htmx(req *http.Request) *http.Request {
	req.Header.Set("HX-Request", "true")
	return req
}

// get fetches a path of the server.
func (b *browser) get(path string) page {
	b.h.t.Helper()
	return b.do(b.newGet(path))
}

// hxGet fetches a path as htmx does, for the fragments it swaps in or polls.
func (b *browser) hxGet(path string) page {
	b.h.t.Helper()
	return b.do(htmx(b.newGet(path)))
}

// post sends a form as a same-origin browser page would (Origin set).
func (b *browser) post(path string, form url.Values) page {
	b.h.t.Helper()
	return b.do(b.newPost(path, form))
}

// hxPost posts a form as htmx does: same origin, with HX-Request.
func (b *browser) hxPost(path string, form url.Values) page {
	b.h.t.Helper()
	return b.do(htmx(b.newPost(path, form)))
}

// signIn signs in and fails the test unless it worked.
func (b *browser) signIn(email, password string) {
	b.h.t.Helper()
	p := b.post("/dashboard/login", url.Values{"email": {email}, "password": {password}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/" {
		b.h.t.Fatalf("sign in as %s: %d %s", email, p.Status, p.Header.Get("Location"))
	}
}

var csrfRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// csrf is the anti-forgery value of a page's forms.
func csrf(t testing.TB, body string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the page has no _csrf field")
	}
	return m[1]
}

// mustContain fails unless body holds every one of want.
func mustContain(t testing.TB, body string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

// apiDo calls the JSON API with the secret key; the caller closes the response's body.
func (h *harness) apiDo(method, path, key string, form url.Values) *http.Response {
	h.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, h.srv.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

// api calls the JSON API with the secret key.
func (h *harness) api(method, path, key string, form url.Values) (int, string) {
	h.t.Helper()
	resp := h.apiDo(method, path, key, form)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

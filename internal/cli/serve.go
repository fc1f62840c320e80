package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"svc/internal/account"
	"svc/internal/api"
	"svc/internal/avatar"
	"svc/internal/billing"
	"svc/internal/buildinfo"
	"svc/internal/chat"
	"svc/internal/config"
	"svc/internal/crawl"
	"svc/internal/dashboard"
	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/i18n"
	"svc/internal/metrics"
	"svc/internal/notify"
	"svc/internal/redact"
	"svc/internal/semantic"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/studio"
	"svc/internal/testsets"
	"svc/internal/users"
)

// cmdServe runs `svc serve`, or `svc demo` (seed, print the key, then serve).
func cmdServe(ctx context.Context, args []string, env Env, seed bool) error {
	name := "serve"
	if seed {
		name = "demo"
	}
	c, err := newCommand(name, env)
	if err != nil {
		return err
	}
	c.cfg.ServeFlags(c.fs)
	if err := c.noPositional(args); err != nil {
		return err
	}
	log := c.logger()
	buildinfo.LogStart(log)
	started := time.Now().UTC()
	// On SQLite this process is the data directory's only server (the lock), so a hold made
	// before it started belongs to a server that died holding it: it is given back before
	// serving. On PostgreSQL other servers share the database and their holds are live, so
	// only the lapsed ones are released (createdBefore zero releases none by age).
	heldBefore := started
	if c.cfg.DatabaseURL == "" {
		unlock, err := sqlite.LockServe(c.cfg.DataDir)
		if errors.Is(err, sqlite.ErrServing) {
			return usagef("%v: stop it first, or give this one its own --data", err)
		}
		if err != nil {
			return err
		}
		defer unlock()
	} else {
		heldBefore = time.Time{}
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	releaseHolds(ctx, st, time.Now().UTC(), heldBefore, log)

	accounts := account.New(st, nil)
	ln, err := net.Listen("tcp", c.cfg.Addr)
	if err != nil {
		return usagef("listen on %s: %v", c.cfg.Addr, err)
	}
	base := c.cfg.PublicURL
	var opts AppOptions
	var app *App // the demo builds it early, to seed its dashboard owner through app.Users
	if seed {
		a, key, err := demo.Seed(ctx, st, accounts)
		if err != nil {
			ln.Close()
			return err
		}
		token, err := demo.SeedWidget(ctx, st, accounts, a, demoDomains(base))
		if err != nil {
			ln.Close()
			return err
		}
		opts.DemoPage = demo.Page(base+"/widget.js", token, "en")
		if app, err = NewApp(st, accounts, c.cfg, log, opts); err != nil {
			ln.Close()
			return err
		}
		email, password, err := demo.SeedOwner(ctx, st, app.Users, a, time.Now())
		if err != nil {
			ln.Close()
			return err
		}
		snippet := fmt.Sprintf(`<script src="%s/widget.js" data-svc-token="%s" data-svc-lang="en" data-svc-color="#234d20" defer></script>`,
			base, token)
		if err := c.print(map[string]any{"account_id": a.ID, "api_key": key, "base_url": base,
			"balance": billing.USD(a.BalanceMicro), "embed_token": token, "widget_snippet": snippet,
			"demo_page_url": base + "/demo/", "dashboard_url": base + "/dashboard/", "dashboard_email": email,
			"dashboard_password": password}); err != nil {
			ln.Close()
			return err
		}
		fmt.Fprintf(env.Stderr, "\nDemo account %d is ready.\n  Dashboard:        %s/dashboard/  (sign in as %s with password %s)\n  Widget demo page: %s/demo/\n  Try the API:\n  curl -s %s/api/v1/chat/send -H 'Authorization: Bearer %s' --data-urlencode 'message=How long does delivery take?'\n\n",
			a.ID, base, email, password, base, base, key)
	} else if err := c.print(map[string]any{"addr": ln.Addr().String(), "base_url": base}); err != nil {
		ln.Close()
		return err
	}
	if c.cfg.DatabaseURL == "" {
		// The commands run beside this server make links that must open on it (linkBase);
		// without the record they fall back to SVC_ADDR and say so, so serving goes on.
		if remove, err := recordServing(c.cfg.DataDir, base); err != nil {
			log.Warn("the serving address is not recorded: svc user add will build invite links on SVC_ADDR", "err", err)
		} else {
			defer remove()
		}
	}
	if app == nil {
		if app, err = NewApp(st, accounts, c.cfg, log, opts); err != nil {
			ln.Close()
			return err
		}
	}
	// Deferred before the HTTP server and the sweeps start, so it runs after they stopped.
	defer app.Close()
	// The test runner follows KB changes (regression runs) from now on; its runs in
	// progress are stopped, each marked failed, before the store closes.
	defer app.TestRunner.Serve(ctx)()
	stopMetrics, err := serveMetrics(c.cfg, app.Metrics, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopMetrics()
	// The periodic sweeps stop, and are waited for, before the store closes (these defers run
	// before the store's): one still logging or writing after serve returned would race.
	bctx, stopSweeps := context.WithCancel(ctx)
	var sweeps sync.WaitGroup
	var idle idleMemory
	sweeps.Add(3)
	if app.Embedder != nil {
		// The background embedder: never inside a visitor's request; stopped with the sweeps,
		// before the vector indexes close (app.Close) and the store closes.
		sweeps.Add(1)
		go func() { defer sweeps.Done(); app.Embedder.Run(bctx) }()
	}
	go func() { defer sweeps.Done(); app.sweepSessions(bctx) }()
	go func() { defer sweeps.Done(); sweepHolds(bctx, st, sweepPeriod(c.cfg.HoldTTL), log) }()
	idle.forget = app.forget
	go func() { defer sweeps.Done(); idle.run(bctx, time.Second) }()
	defer func() { stopSweeps(); sweeps.Wait() }()
	// The retention sweep (SVC_RETENTION_DAYS) starts here; it ends before the store closes.
	defer startRetention(ctx, st, c.cfg.RetentionDays, log)()
	// Crawls started on demand (the dashboard's "crawl now", the KB API's crawlStart) end
	// after the HTTP drain and release their sites' leases before the store closes
	// (deferred earlier, so it runs later).
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.ShutdownTimeout)
		defer cancel()
		if err := app.Crawls.Stop(sctx); err != nil {
			log.Warn("crawls did not stop in time", "err", err)
		}
	}()
	if app.Outbox != nil {
		octx, stopOutbox := context.WithCancel(ctx)
		outboxDone := make(chan struct{})
		go func() { defer close(outboxDone); app.Outbox.Run(octx) }()
		defer func() { stopOutbox(); <-outboxDone }()
	} else {
		log.Warn("SVC_SMTP_URL is not set: owner notices (embed budget reached) wait in the outbox until it is")
	}
	// The scheduler stops with ctx; serveHTTP returns after the HTTP drain, and the deferred
	// wait lets an interrupted crawl release its site lease before the store closes.
	sched := crawl.NewScheduler(crawl.New(app.kbStore, crawl.Options{MaxPages: c.cfg.CrawlMaxPages,
		AllowPrivate: c.cfg.CrawlAllowPrivate, Metrics: app.instruments.crawl}, log), app.kbStore, c.cfg.CrawlInterval, log)
	sctx, stopSched := context.WithCancel(ctx)
	schedDone := make(chan struct{})
	go func() { defer close(schedDone); sched.Run(sctx) }()
	defer func() { stopSched(); <-schedDone }()
	return serveHTTP(ctx, ln, idle.wrap(app.Handler), c.cfg.ShutdownTimeout, log)
}

// demoDomains are the domains the demo's embed token allows: the public URL's host, and
// localhost and 127.0.0.1, where a newcomer opens the demo page.
func demoDomains(publicURL string) []string {
	out := []string{"localhost", "127.0.0.1"}
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" && !slices.Contains(out, u.Hostname()) {
		out = append(out, u.Hostname())
	}
	return out
}

// App is the wired service: the HTTP handler and the background work serve runs with it.
type App struct {
	Handler http.Handler
	// Users signs dashboard users in; serve sweeps its stale sessions.
	Users *users.Service
	// Dashboard serves /dashboard/.
	Dashboard *dashboard.Server
	// Crawls runs the crawls started on demand, from the dashboard and the KB API alike;
	// serve stops them on shutdown.
	Crawls *crawl.Jobs
	// Outbox delivers owner notices; nil when no SMTP server is configured, and then the
	// notices wait, durable, in the store.
	Outbox *notify.Worker
	// Metrics are the service's Prometheus metrics; nil when /metrics is not served.
	Metrics *metrics.Metrics
	// instruments are Metrics as each consumer takes them (nil interfaces when off).
	instruments instruments
	// close releases what the app opened beside the store: the Redis client, if any.
	close func() error
	// forget drops what the engine remembers to answer faster (see engine.Forget); serve
	// calls it when the server falls idle.
	forget func()
	// Embedder embeds the KB in the background (serve runs it); nil without an embedding
	// provider.
	Embedder *semantic.Worker
	// kbStore is the store as the app writes through it: with an embedding provider, its KB
	// writes wake the Embedder, and every KB change schedules a regression test run
	// (serve's crawl scheduler writes through it too).
	kbStore store.Store
	// Tests keeps the owners' test sets and runs them (the dashboard's /dashboard/tests);
	// TestRunner runs them in the background and follows KB changes while serve runs it.
	Tests      *testsets.Service
	TestRunner *testsets.Runner
}

// Close releases the app's own connections (Redis) and its vector indexes; serve calls it
// once the HTTP server has drained and the Embedder has stopped. The store is the caller's
// to close.
func (app *App) Close() error {
	if app.close == nil {
		return nil
	}
	return app.close()
}

// AppOptions are the parts of App only some commands want.
type AppOptions struct {
	DemoPage []byte           // served at /demo/ when set
	Now      func() time.Time // the clock of chat, the HTTP server and the outbox; time.Now when nil
	// TestDebounce overrides testsets.DefaultDebounce, and TestRunFinished is told of
	// every test run the TestRunner finished (tests).
	TestDebounce    time.Duration
	TestRunFinished func(store.TestRun)
	// CrawlFinished is told of every on-demand crawl that ended (tests).
	CrawlFinished func(crawl.Job)
}

// NewApp wires the domain services into the HTTP handler and the outbox worker; cfg must be
// validated.
func NewApp(st store.Store, accounts *account.Service, cfg config.Config, log *slog.Logger, opts AppOptions) (*App, error) {
	log = redact.Logger(log) // a no-op for serve's logger, which already redacts
	// Avatar images are fetched under the crawler's address rules (SVC_CRAWL_ALLOW_PRIVATE).
	accounts.WithAvatars(avatar.New(avatar.Options{AllowPrivate: cfg.CrawlAllowPrivate}))
	m, ins := newInstruments(cfg, st, log, opts.Now)
	sem, err := newSemantic(cfg, st, log, ins.semantic)
	if err != nil {
		return nil, err
	}
	var semSearch engine.Semantic // a nil interface without a provider, not a nil *Service in one
	if sem != nil {
		semSearch = sem.service
		if err := m.WatchVectorIndexes(sem.service.IndexStats); err != nil {
			sem.close()
			return nil, err
		}
		// Every committed KB write of this process wakes the embedder and makes the next
		// search of the account check its index (semantic.NotifyKBWrites).
		st = semantic.NotifyKBWrites(st, sem.worker.Notify)
	}
	// Every committed change of a KB (a finished crawl, an upload or import, a Q&A edit)
	// schedules the account's regression test run (testsets.WatchKB); the Runner is built
	// below, once the engine it asks through is.
	var testRunner *testsets.Runner
	st = testsets.WatchKB(st, testsets.HookFunc(func(accountID int64, trigger string) {
		if testRunner != nil { // NewApp itself writes nothing before the Runner exists
			testRunner.KBChanged(accountID, trigger)
		}
	}))
	engs, err := newEngines(cfg, st, log, ins.provider, semSearch)
	if err != nil {
		sem.close()
		return nil, err
	}
	texts, err := i18n.Load()
	if err != nil {
		sem.close()
		return nil, err
	}
	app := &App{Metrics: m, instruments: ins, kbStore: st}
	if sem != nil {
		app.Embedder = sem.worker
	}
	var kick func()
	if cfg.SMTPURL != "" {
		sender, err := notify.NewSMTP(cfg.SMTPURL, cfg.SMTPFrom)
		if err != nil {
			return nil, usagef("SVC_SMTP_URL: %v", err)
		}
		app.Outbox = notify.NewWorker(notify.Deps{Store: st, Sender: sender, Log: log, Now: opts.Now, PublicURL: cfg.PublicURL,
			Texts: texts, Metrics: ins.outbox})
		kick = app.Outbox.Kick
	}
	// Test runs ask as serve answers (the model, billed, when one is configured) through the
	// watched store, so "answer this" is a Q&A edit like any other.
	app.Tests = testsets.New(testsets.Deps{Store: st, Answerer: engs.answerer, Billed: engs.model != nil, Now: opts.Now,
		Log: log, HoldTTL: cfg.HoldTTL})
	testRunner = testsets.NewRunner(app.Tests, testsets.RunnerOptions{Kick: kick, Debounce: opts.TestDebounce,
		Finished: opts.TestRunFinished})
	app.TestRunner = testRunner
	limits := newSharedLimits(cfg, m, log)
	app.close = func() error {
		testRunner.Close()
		sem.close()
		return limits.close()
	}
	limiter := m.Limiter(limits.limiter) // counts refusals by key class when metrics are on
	chatSvc := chat.New(chat.Deps{Store: st, Engine: engs.answerer, Limiter: limiter, Surge: limits.surge,
		Notify: kick, Now: opts.Now, Log: log, Texts: texts, Observer: ins.answers, HoldTTL: cfg.HoldTTL,
		EmbedPricePerMTok: cfg.EmbedPricePerMTok})
	studioSvc := studio.New(studio.Deps{Store: st, Engine: engs.builtin, LLM: engs.model, Limiter: limiter, Now: opts.Now,
		Log: log, HoldTTL: cfg.HoldTTL})
	app.Users = users.New(users.Deps{Store: st, Throttle: limits.throttle, Now: opts.Now, PublicURL: cfg.PublicURL, Log: log,
		Kick: kick, Metrics: ins.signIn})
	// One set of on-demand crawls for the dashboard and the KB API, writing through the
	// watched store like every KB write.
	app.Crawls = crawl.NewJobs(crawl.New(st, crawl.Options{MaxPages: cfg.CrawlMaxPages, AllowPrivate: cfg.CrawlAllowPrivate,
		Metrics: ins.crawl}, log), crawl.JobsOptions{Now: opts.Now, Log: log, Finished: opts.CrawlFinished})
	dash, err := dashboard.New(dashboard.Deps{Store: st, Users: app.Users, Accounts: accounts, Chat: chatSvc, Studio: studioSvc,
		Tests: app.Tests, TestRunner: testRunner, Catalog: texts, Crawls: app.Crawls,
		CrawlInterval: cfg.CrawlInterval, CrawlAllowPrivate: cfg.CrawlAllowPrivate, EmbedModel: embedModel(cfg),
		Limiter: limiter, PublicURL: cfg.PublicURL, TrustedProxies: cfg.TrustedProxies, Log: log, Now: opts.Now})
	if err != nil {
		app.Close()
		return nil, err
	}
	metricsHandler, metricsToken := mainListenerMetrics(cfg, m)
	app.Handler = api.New(api.Deps{Store: st, Accounts: accounts, Chat: chatSvc, Studio: studioSvc, Limiter: limiter,
		Crawls: app.Crawls, CrawlAllowPrivate: cfg.CrawlAllowPrivate,
		TrustedProxies: cfg.TrustedProxies, DemoPage: opts.DemoPage, Dashboard: dash, Preview: dash, PublicURL: cfg.PublicURL, Log: log, Now: opts.Now,
		Metrics: ins.requests, MetricsHandler: metricsHandler, MetricsToken: metricsToken, RedisPing: limits.ping})
	app.Dashboard = dash
	app.forget = engs.builtin.Forget
	return app, nil
}

// holdSweep is how often serve releases reservations past their expiry (a hung answer's,
// or one left by a replica that died): a lapsed hold is otherwise only released when its
// account sends again, and until then it hides money from the balance and the ledger check.
const holdSweep = 30 * time.Second

// sweepPeriod is how often the hold sweep runs for reservations that last ttl: holdSweep,
// or half the TTL when that is shorter, so a lapsed hold is back within 1.5 TTL at most.
func sweepPeriod(ttl time.Duration) time.Duration {
	if ttl > 0 && ttl/2 < holdSweep {
		return ttl / 2
	}
	return holdSweep
}

// holdReleaser is what the reservation sweep needs of the store.
type holdReleaser interface {
	ReleaseReservations(ctx context.Context, expiredBy, createdBefore time.Time) (store.ReleasedReservations, error)
}

// sweepHolds releases lapsed reservations every period until ctx ends.
func sweepHolds(ctx context.Context, st holdReleaser, period time.Duration, log *slog.Logger) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			releaseHolds(ctx, st, time.Now().UTC(), time.Time{}, log)
		}
	}
}

// releaseHolds releases the reservations lapsed by now or made before createdBefore.
func releaseHolds(ctx context.Context, st holdReleaser, now, createdBefore time.Time, log *slog.Logger) {
	got, err := st.ReleaseReservations(ctx, now, createdBefore)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Error("release lapsed reservations", "err", err)
	case got.Count > 0:
		log.Warn("released reservations no answer settled", "reservations", got.Count, "accounts", got.Accounts,
			"micro_usd", got.Micro, "at_start", !createdBefore.IsZero())
	}
}

// sessionSweep is how often serve deletes expired dashboard sessions and links.
const sessionSweep = 15 * time.Minute

// sweepSessions deletes stale dashboard sessions until ctx ends.
func (app *App) sweepSessions(ctx context.Context) {
	t := time.NewTicker(sessionSweep)
	defer t.Stop()
	for {
		app.Users.Sweep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// serveHTTP serves until ctx ends, then drains in-flight requests for up to grace.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, log *slog.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("serving", slog.String("addr", ln.Addr().String()))
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", slog.Duration("grace", grace))
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

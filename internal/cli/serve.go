package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"svc/internal/account"
	"svc/internal/api"
	"svc/internal/billing"
	"svc/internal/chat"
	"svc/internal/config"
	"svc/internal/crawl"
	"svc/internal/demo"
	"svc/internal/ratelimit"
	"svc/internal/store"
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
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()

	accounts := account.New(st, nil)
	handler, err := NewHandler(st, accounts, c.cfg, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.cfg.Addr)
	if err != nil {
		return usagef("listen on %s: %v", c.cfg.Addr, err)
	}
	base := c.cfg.PublicURL
	if seed {
		a, key, err := demo.Seed(ctx, st, accounts)
		if err != nil {
			ln.Close()
			return err
		}
		if err := c.print(map[string]any{"account_id": a.ID, "api_key": key, "base_url": base,
			"balance": billing.USD(a.BalanceMicro)}); err != nil {
			ln.Close()
			return err
		}
		fmt.Fprintf(env.Stderr, "\nDemo account %d is ready. Try:\n  curl -s %s/api/v1/chat/send -H 'Authorization: Bearer %s' --data-urlencode 'message=How long does delivery take?'\n\n",
			a.ID, base, key)
	} else if err := c.print(map[string]any{"addr": ln.Addr().String(), "base_url": base}); err != nil {
		ln.Close()
		return err
	}
	// The scheduler stops with ctx; serveHTTP returns after the HTTP drain, and the deferred
	// wait lets an interrupted crawl release its site lease before the store closes.
	sched := crawl.NewScheduler(crawl.New(st, crawl.Options{MaxPages: c.cfg.CrawlMaxPages,
		AllowPrivate: c.cfg.CrawlAllowPrivate}, log), st, c.cfg.CrawlInterval, log)
	sctx, stopSched := context.WithCancel(ctx)
	schedDone := make(chan struct{})
	go func() { defer close(schedDone); sched.Run(sctx) }()
	defer func() { stopSched(); <-schedDone }()
	return serveHTTP(ctx, ln, handler, c.cfg.ShutdownTimeout, log)
}

// NewHandler wires the domain services into the HTTP handler; cfg must be validated.
func NewHandler(st store.Store, accounts *account.Service, cfg config.Config, log *slog.Logger) (http.Handler, error) {
	eng, err := newAnswerer(cfg, st, log)
	if err != nil {
		return nil, err
	}
	chatSvc := chat.New(chat.Deps{Store: st, Engine: eng, Limiter: ratelimit.NewMemory(), Log: log})
	return api.New(api.Deps{Store: st, Accounts: accounts, Chat: chatSvc, Log: log}), nil
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

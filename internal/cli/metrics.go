package cli

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"svc/internal/api"
	"svc/internal/chat"
	"svc/internal/config"
	"svc/internal/crawl"
	"svc/internal/llm"
	"svc/internal/metrics"
	"svc/internal/notify"
	"svc/internal/semantic"
	"svc/internal/store"
	"svc/internal/users"
)

// instruments are the metrics as each consumer declares them. With metrics off every field
// is a nil interface (not a nil *Metrics inside one), so the consumers' nil checks skip the
// calls altogether.
type instruments struct {
	requests api.RequestObserver
	answers  chat.Observer
	provider llm.Observer
	crawl    crawl.PageCounter
	outbox   notify.Metrics
	signIn   users.Metrics
	semantic semantic.Observer
}

// newInstruments builds the service's metrics when cfg serves /metrics (SVC_METRICS_ADDR or
// SVC_METRICS_TOKEN), and nothing otherwise: nobody could read them.
func newInstruments(cfg config.Config, st store.Store, log *slog.Logger, now func() time.Time) (*metrics.Metrics, instruments) {
	if !cfg.MetricsEnabled() {
		return nil, instruments{}
	}
	m := metrics.New(metrics.Options{Stats: st, Now: now, Log: log})
	return m, instruments{requests: m, answers: m, provider: m, crawl: m, outbox: m, signIn: m, semantic: m}
}

// mainListenerMetrics is what the main listener serves at /metrics: the exposition and
// the token it requires, or nothing when metrics have a listener of their own (or no token).
func mainListenerMetrics(cfg config.Config, m *metrics.Metrics) (http.Handler, string) {
	if m == nil || cfg.MetricsAddr != "" || cfg.MetricsToken == "" {
		return nil, ""
	}
	return m.Handler(), cfg.MetricsToken
}

// serveMetrics starts the separate /metrics server on SVC_METRICS_ADDR, when configured,
// and returns the function that shuts it down (draining for up to cfg.ShutdownTimeout). The
// listener is opened here, so a busy address fails serve before it starts.
func serveMetrics(cfg config.Config, m *metrics.Metrics, log *slog.Logger) (stop func(), err error) {
	if m == nil || cfg.MetricsAddr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return nil, usagef("listen on %s (SVC_METRICS_ADDR): %v", cfg.MetricsAddr, err)
	}
	srv := &http.Server{
		Handler:           api.MetricsServer(m.Handler(), cfg.MetricsToken),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "addr", ln.Addr().String(), "err", err)
		}
	}()
	log.Info("serving metrics", "addr", ln.Addr().String(), "token", cfg.MetricsToken != "")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			log.Warn("metrics server shutdown", "err", err)
			srv.Close()
		}
		<-done
	}, nil
}

// Package metrics owns the service's Prometheus metrics: the registry, the metric
// definitions and the /metrics exposition. Instrumented packages never import Prometheus:
// each declares the one or two methods it calls (ObserveRequest, Answer, ProviderCall,
// RateLimited, CrawlPage, OutboxFailed, SignInFailed; semantic retrieval's EmbeddingCall,
// SemanticDegraded, RerankCall, VectorIndexLoad, VectorIndexStale) as a small interface, and
// every method is a no-op on a nil *Metrics, so "no metrics" needs no special case. The
// vector indexes' gauges are read at scrape time from a function (WatchVectorIndexes).
//
// Every Metrics has a private registry: tests build many apps in one process, and the
// global DefaultRegisterer would make the second one fail (or mix their counts).
package metrics

import (
	"log/slog"
	"net/http"
	"time"

	"svc/internal/buildinfo"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// namespace prefixes every metric of ours (svc_...); the Go and process collectors keep
// their standard go_... and process_... names, which dashboards expect.
const namespace = "svc"

// Options configure New.
type Options struct {
	// Stats is read at every scrape for the gauges of held reservations and of the outbox;
	// nil leaves those gauges out.
	Stats Stats
	// Now is the clock the scrape-time gauges compare expiries with; time.Now when nil.
	Now func() time.Time
	// Log receives scrape errors; slog.Default() when nil.
	Log *slog.Logger
}

// Metrics holds the service's metrics. Use New; the zero value is not usable, but a nil
// *Metrics is, as a no-op.
type Metrics struct {
	http    *httpMetrics
	answers *answerMetrics
	llm     *llmMetrics
	limits  *limitMetrics
	// semantic counts the embedding and rerank providers and retrieval without them.
	semantic *semanticMetrics
	// fallback counts limiter, surge and sign-in throttle decisions made in this replica's
	// memory because the shared Redis did not answer, by component.
	fallback *prometheus.CounterVec
	crawl    *prometheus.CounterVec // result
	outbox   *prometheus.CounterVec // kind, outcome
	signIn   *prometheus.CounterVec // reason
	handler  http.Handler
	// reg is the private registry, for the collectors added after New (WatchVectorIndexes).
	reg *prometheus.Registry
}

// New builds the metrics and registers them, with the Go runtime's and the process's
// collectors, on a registry of its own.
func New(o Options) *Metrics {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg:      reg,
		http:     newHTTPMetrics(),
		answers:  newAnswerMetrics(),
		llm:      newLLMMetrics(),
		limits:   newLimitMetrics(),
		semantic: newSemanticMetrics(),
		fallback: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "ratelimit_fallback_total",
			Help: "Rate-limit and surge decisions made in this replica's memory because Redis (SVC_REDIS_URL) did not answer, by component: limiter, surge, signin."},
			[]string{"component"}),
		crawl: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "crawl_pages_total",
			Help: "Pages the crawler fetched (attempted), by result: updated, unchanged, skipped, error, other."},
			[]string{"result"}),
		outbox: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "outbox_send_failures_total",
			Help: "Failed attempts to send an owner notice, by notice kind and outcome (retry, or given_up after the last attempt)."},
			[]string{"kind", "outcome"}),
		signIn: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "dashboard_signin_failures_total",
			Help: "Refused dashboard sign-ins, by reason: bad_credentials, or throttled."},
			[]string{"reason"}),
	}
	for _, r := range crawlResults {
		m.crawl.WithLabelValues(r)
	}
	for _, r := range []string{"bad_credentials", "throttled"} {
		m.signIn.WithLabelValues(r)
	}
	for _, c := range fallbackComponents {
		m.fallback.WithLabelValues(c)
	}
	build := buildinfo.Read()
	info := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "build_info",
		Help:        "Always 1; the labels name the running build (as svc version prints it).",
		ConstLabels: prometheus.Labels{"version": build.Version, "revision": build.Revision, "goversion": build.Go}})
	info.Set(1)
	reg.MustRegister(
		info,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.http.duration, m.answers.vec, m.llm.calls, m.llm.duration, m.llm.errors, m.llm.tokens,
		m.limits.vec, m.fallback, m.crawl, m.outbox, m.signIn,
	)
	reg.MustRegister(m.semantic.collectors()...)
	if o.Stats != nil {
		reg.MustRegister(newStatsCollector(o.Stats, o.Now))
	}
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(o.Log.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError,
		Registry:      reg, // counts its own errors: promhttp_metric_handler_errors_total
		// Scrapes are cheap but read the store; a stampede of them must not pile up.
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
	return m
}

// Handler serves the exposition of m's registry, unguarded: the caller decides who may read
// it (a listener of its own, a bearer token, or both). A store failure while collecting the
// scrape-time gauges is logged and leaves those gauges out; the rest is still served.
func (m *Metrics) Handler() http.Handler { return m.handler }

package metrics

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"svc/internal/metrics/metricstest"
	"svc/internal/ratelimit"
	"svc/internal/store"
	"svc/internal/vecindex"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
)

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func scrape(t *testing.T, m *Metrics) metricstest.Families {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	t.Cleanup(srv.Close)
	return metricstest.Scrape(t, srv.Client(), srv.URL, "")
}

func value(t *testing.T, f metricstest.Families, name string, labels map[string]string) float64 {
	t.Helper()
	v, ok := f.Value(name, labels)
	if !ok {
		t.Fatalf("no series %s%v", name, labels)
	}
	return v
}

func TestKeyClassStripsIDs(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"send:key:12":                "send:key",
		"embed:ip:203.0.113.9":       "embed:ip",
		"embed:ip:2001:db8:1:2::/64": "embed:ip",
		"embed:ip:unknown":           "embed:ip",
		"embed:token:7":              "embed:token",
		"embed:visitor:7:7d444840-9dc0-41d4-a716-00001": "embed:visitor",
		"marketing:acct:3":    "marketing:acct",
		"intelligence:acct:3": "intelligence:acct",
		"dash:try:5":          "dash:try",
		"dash:kbimport:5":     "dash:kbimport",
		"send":                "send",
		"send:":               "send",
		"42:key":              "other",
		"":                    "other",
		"Send:Key:1":          "other",
	} {
		if got := keyClass(key); got != want {
			t.Errorf("keyClass(%q) = %q, want %q", key, got, want)
		}
	}
}

// fixedLimiter refuses every key whose name says so.
type fixedLimiter struct{}

func (fixedLimiter) Allow(key string, _ int, _ time.Time) (bool, time.Duration) {
	if strings.Contains(key, "refuse") {
		return false, time.Second
	}
	return true, 0
}

func TestLimiterCountsRefusalsByClassOnly(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	l := m.Limiter(fixedLimiter{})
	now := time.Now()
	for i := range 3 {
		if ok, wait := l.Allow("refuse:key:"+string(rune('1'+i)), 1, now); ok || wait != time.Second {
			t.Fatalf("refusal passed through as %v %v", ok, wait)
		}
	}
	if ok, _ := l.Allow("send:key:1", 1, now); !ok {
		t.Fatal("allowed key refused")
	}
	f := scrape(t, m)
	if got := value(t, f, "svc_ratelimit_refusals_total", map[string]string{"class": "refuse:key"}); got != 3 {
		t.Fatalf("refusals = %v, want 3", got)
	}
	if got := f.LabelValues("svc_ratelimit_refusals_total", "class"); len(got) != 1 {
		t.Fatalf("classes %v: an allowed key or an id became a label", got)
	}
}

// Fallback decisions are counted by component, from a closed set of label values.
func TestRateLimitFallbackByComponent(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	m.RateLimitFallback("limiter")
	m.RateLimitFallback("limiter")
	m.RateLimitFallback("surge")
	m.RateLimitFallback("signin")
	m.RateLimitFallback("embed:ip:10.0.0.1")
	f := scrape(t, m)
	for c, want := range map[string]float64{"limiter": 2, "surge": 1, "signin": 1, "other": 1} {
		if got := value(t, f, "svc_ratelimit_fallback_total", map[string]string{"component": c}); got != want {
			t.Errorf("fallbacks of %s = %v, want %v", c, got, want)
		}
	}
}

func TestLimitClassesAreBounded(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	for i := range 3 * maxLimitClasses {
		// Words only, so keyClass cannot strip them: the cap must hold anyway.
		m.RateLimited("x:" + strings.Repeat("y", i+1) + ":1")
	}
	f := scrape(t, m)
	classes := f.LabelValues("svc_ratelimit_refusals_total", "class")
	if len(classes) > maxLimitClasses+1 {
		t.Fatalf("%d classes, want at most %d", len(classes), maxLimitClasses+1)
	}
	if got := value(t, f, "svc_ratelimit_refusals_total", map[string]string{"class": "other"}); got == 0 {
		t.Fatal("classes past the cap were not counted as other")
	}
}

func TestAnswersUnknownLabelsAreOther(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	m.Answer(store.SourceAI, "tr", ChannelWidget)
	m.Answer(store.SourceCacheTenant, "en", "")
	m.Answer("surprise", "xx", ChannelAPI)
	f := scrape(t, m)
	for _, c := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"source": "ai", "lang": "tr", "channel": "widget"}, 1},
		{map[string]string{"source": "cache_tenant", "lang": "en", "channel": "api"}, 1},
		{map[string]string{"source": "other", "lang": "other", "channel": "api"}, 1},
		{map[string]string{"source": "fallback", "lang": "de", "channel": "api"}, 0}, // exists at 0
	} {
		if got := value(t, f, "svc_answers_total", c.labels); got != c.want {
			t.Errorf("%v = %v, want %v", c.labels, got, c.want)
		}
	}
	if got := value(t, f, "svc_answers_total", nil); got != 3 {
		t.Fatalf("answers total %v, want 3", got)
	}
}

func TestRequestsProviderCallsAndEvents(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	m.ObserveRequest("/api/v1/chat/send", 200, 30*time.Millisecond)
	m.ObserveRequest("/api/v1/chat/send", 200, 3*time.Second)
	m.ObserveRequest("/api/v1/chat/send", 429, time.Millisecond)
	m.ObserveRequest("/", 999, time.Millisecond)
	m.ProviderCall("openai", "gpt-test", time.Second, 100, 20, "")
	m.ProviderCall("openai", "gpt-test", 2*time.Second, 0, 0, "server_error")
	m.CrawlPage("updated")
	m.CrawlPage("error")
	m.CrawlPage("weird")
	m.OutboxFailed(store.NoticeBudgetReached, false)
	m.OutboxFailed("unheard_of", true)
	m.SignInFailed("bad_credentials")
	f := scrape(t, m)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"svc_http_request_duration_seconds", map[string]string{"route": "/api/v1/chat/send", "code": "200"}, 2},
		{"svc_http_request_duration_seconds", map[string]string{"route": "/api/v1/chat/send", "code": "429"}, 1},
		{"svc_http_request_duration_seconds", map[string]string{"route": "/", "code": "other"}, 1},
		{"svc_llm_calls_total", map[string]string{"provider": "openai", "model": "gpt-test"}, 2},
		{"svc_llm_call_duration_seconds", map[string]string{"provider": "openai", "model": "gpt-test"}, 2},
		{"svc_llm_errors_total", map[string]string{"kind": "server_error"}, 1},
		{"svc_llm_tokens_total", map[string]string{"direction": "input"}, 100},
		{"svc_llm_tokens_total", map[string]string{"direction": "output"}, 20},
		{"svc_crawl_pages_total", map[string]string{"result": "updated"}, 1},
		{"svc_crawl_pages_total", map[string]string{"result": "error"}, 1},
		{"svc_crawl_pages_total", map[string]string{"result": "other"}, 1},
		{"svc_crawl_pages_total", map[string]string{"result": "unchanged"}, 0},
		{"svc_outbox_send_failures_total", map[string]string{"kind": store.NoticeBudgetReached, "outcome": "retry"}, 1},
		{"svc_outbox_send_failures_total", map[string]string{"kind": "other", "outcome": "given_up"}, 1},
		{"svc_dashboard_signin_failures_total", map[string]string{"reason": "bad_credentials"}, 1},
		{"svc_dashboard_signin_failures_total", map[string]string{"reason": "throttled"}, 0},
	} {
		if got := value(t, f, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// The slow send landed in a high bucket: the buckets reach a model-backed send.
	h := f["svc_http_request_duration_seconds"].GetMetric()
	var top float64
	for _, s := range h {
		for _, b := range s.GetHistogram().GetBucket() {
			top = max(top, b.GetUpperBound())
		}
	}
	if top < 10 {
		t.Fatalf("largest bucket %v s", top)
	}
	if _, ok := f.Value("go_goroutines", nil); !ok {
		t.Fatal("no Go runtime metrics")
	}
	if v, ok := f.Value("svc_build_info", nil); !ok || v != 1 || len(f.LabelValues("svc_build_info", "goversion")) != 1 {
		t.Fatal("no build info")
	}
}

func TestSemanticRetrievalCounters(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	f := scrape(t, m)
	// Known series exist at 0 before anything happened, so that rate() works from the start.
	for _, c := range []struct {
		name   string
		labels map[string]string
	}{
		{"svc_embedding_calls_total", map[string]string{"use": "query"}},
		{"svc_embedding_tokens_total", map[string]string{"use": "document"}},
		{"svc_semantic_degraded_total", map[string]string{"reason": "provider"}},
		{"svc_rerank_calls_total", nil},
		{"svc_vector_index_loads_total", map[string]string{"result": "ok"}},
		{"svc_vector_index_stale_total", nil},
	} {
		if got := value(t, f, c.name, c.labels); got != 0 {
			t.Errorf("%s%v = %v before anything happened", c.name, c.labels, got)
		}
	}
	m.EmbeddingCall("query", 7, "")
	m.EmbeddingCall("query", 0, "circuit_open")
	m.EmbeddingCall("document", 1200, "")
	m.EmbeddingCall("document", 300, "server_error")
	m.EmbeddingCall("bogus", 0, "made_up")
	m.SemanticDegraded("provider")
	m.SemanticDegraded("provider")
	m.SemanticDegraded("index")
	m.SemanticDegraded("whatever")
	m.RerankCall("")
	m.RerankCall("timeout")
	m.VectorIndexLoad(true)
	m.VectorIndexLoad(false)
	m.VectorIndexStale()
	f = scrape(t, m)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"svc_embedding_calls_total", map[string]string{"use": "query"}, 2},
		{"svc_embedding_calls_total", map[string]string{"use": "document"}, 2},
		{"svc_embedding_calls_total", map[string]string{"use": "other"}, 1},
		{"svc_embedding_tokens_total", map[string]string{"use": "query"}, 7},
		{"svc_embedding_tokens_total", map[string]string{"use": "document"}, 1500},
		{"svc_embedding_errors_total", map[string]string{"use": "query", "kind": "circuit_open"}, 1},
		{"svc_embedding_errors_total", map[string]string{"use": "document", "kind": "server_error"}, 1},
		{"svc_embedding_errors_total", map[string]string{"use": "other", "kind": "other"}, 1},
		{"svc_semantic_degraded_total", map[string]string{"reason": "provider"}, 2},
		{"svc_semantic_degraded_total", map[string]string{"reason": "index"}, 1},
		{"svc_semantic_degraded_total", map[string]string{"reason": "other"}, 1},
		{"svc_rerank_calls_total", nil, 2},
		{"svc_rerank_errors_total", map[string]string{"kind": "timeout"}, 1},
		{"svc_vector_index_loads_total", map[string]string{"result": "ok"}, 1},
		{"svc_vector_index_loads_total", map[string]string{"result": "error"}, 1},
		{"svc_vector_index_stale_total", nil, 1},
	} {
		if got := value(t, f, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}

// The vector indexes' gauges are read at scrape time: vectors by the kind of index that
// serves, memory, and the loads and builds still in flight.
func TestVectorIndexGauges(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet()})
	var stats []vecindex.IndexStats
	if err := m.WatchVectorIndexes(func() []vecindex.IndexStats { return stats }); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchVectorIndexes(func() []vecindex.IndexStats { return nil }); err == nil {
		t.Error("a second watch was registered")
	}
	f := scrape(t, m)
	for _, kind := range []string{"exact", "hnsw"} {
		if got := value(t, f, "svc_vector_index_vectors", map[string]string{"kind": kind}); got != 0 {
			t.Errorf("%s vectors with no index = %v", kind, got)
		}
	}
	stats = []vecindex.IndexStats{
		{Account: 1, Kind: "exact", Len: 50_000, Bytes: 40 << 20, Building: true}, // serving while its graph is built
		{Account: 2, Kind: "hnsw", Len: 9_000, Bytes: 10 << 20},
		{Account: 3, Kind: "exact", Len: 300, Bytes: 1 << 20},
		{Account: 4, Kind: "loading", Building: true},
	}
	f = scrape(t, m)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"svc_vector_index_vectors", map[string]string{"kind": "exact"}, 50_300},
		{"svc_vector_index_vectors", map[string]string{"kind": "hnsw"}, 9_000},
		{"svc_vector_index_bytes", nil, 51 << 20},
		{"svc_vector_index_builds", nil, 2},
	} {
		if got := value(t, f, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	var none *Metrics
	if err := none.WatchVectorIndexes(func() []vecindex.IndexStats { return stats }); err != nil {
		t.Errorf("nil metrics: %v", err)
	}
}

// The process collector reads /proc; where there is none, it reports nothing, but where
// there is one it must.
func TestProcessMetrics(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this platform")
	}
	f := scrape(t, New(Options{Log: quiet()}))
	if _, ok := f.Value("process_resident_memory_bytes", nil); !ok {
		t.Fatal("no process metrics")
	}
}

type fakeStats struct {
	s   store.OpsStats
	err error
	now time.Time
}

func (f *fakeStats) OpsStats(_ context.Context, now time.Time) (store.OpsStats, error) {
	f.now = now
	return f.s, f.err
}

func TestScrapeTimeGauges(t *testing.T) {
	t.Parallel()
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	st := &fakeStats{s: store.OpsStats{Reservations: 3, ReservedMicro: 12_500, LapsedReservations: 1, PendingNotices: 2,
		FailedNotices: 4}}
	m := New(Options{Stats: st, Log: quiet(), Now: func() time.Time { return clock }})
	f := scrape(t, m)
	for name, want := range map[string]float64{"svc_reservations_open": 3, "svc_reservations_held_micro_usd": 12_500,
		"svc_reservations_lapsed": 1} {
		if got := value(t, f, name, nil); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if got := value(t, f, "svc_outbox_notices", map[string]string{"status": "pending"}); got != 2 {
		t.Errorf("pending = %v", got)
	}
	if got := value(t, f, "svc_outbox_notices", map[string]string{"status": "failed"}); got != 4 {
		t.Errorf("failed = %v", got)
	}
	if !st.now.Equal(clock) {
		t.Errorf("stats read at %v, want the clock's %v", st.now, clock)
	}
	// The store failing leaves the gauges out but serves everything else.
	st.err = errors.New("database is locked")
	m.Answer(store.SourceAI, "en", ChannelAPI)
	f = scrape(t, m)
	if _, ok := f.Value("svc_reservations_open", nil); ok {
		t.Fatal("a failed read still reported reservations")
	}
	if got := value(t, f, "svc_answers_total", map[string]string{"source": "ai", "lang": "en", "channel": "api"}); got != 1 {
		t.Fatalf("answers after a store failure: %v", got)
	}
}

func TestNilMetricsIsANoOp(t *testing.T) {
	t.Parallel()
	var m *Metrics
	m.ObserveRequest("/", 200, time.Second)
	m.Answer("ai", "en", "api")
	m.ProviderCall("openai", "m", time.Second, 1, 1, "timeout")
	m.RateLimited("send:key:1")
	m.CrawlPage("updated")
	m.OutboxFailed(store.NoticeBudgetReached, true)
	m.SignInFailed("throttled")
	m.RateLimitFallback("limiter")
	m.EmbeddingCall("query", 3, "timeout")
	m.SemanticDegraded("provider")
	m.RerankCall("server_error")
	m.VectorIndexLoad(true)
	m.VectorIndexStale()
	inner := ratelimit.NewMemory()
	if m.Limiter(inner) != ratelimit.Limiter(inner) {
		t.Fatal("a nil Metrics wrapped the limiter")
	}
}

// Two Metrics in one process do not share a registry: the tests build many apps.
func TestRegistriesArePrivate(t *testing.T) {
	t.Parallel()
	a, b := New(Options{Log: quiet()}), New(Options{Log: quiet()})
	a.Answer(store.SourceAI, "en", ChannelAPI)
	if got := value(t, scrape(t, b), "svc_answers_total", nil); got != 0 {
		t.Fatalf("b counted a's answer: %v", got)
	}
}

// Our metric names, help and units follow Prometheus's conventions.
func TestMetricsLint(t *testing.T) {
	t.Parallel()
	m := New(Options{Log: quiet(), Stats: &fakeStats{}})
	m.ProviderCall("openai", "m", time.Second, 1, 1, "timeout")
	m.ObserveRequest("/", 200, time.Second)
	m.RateLimited("send:key:1")
	m.RateLimitFallback("surge")
	m.OutboxFailed(store.NoticeBudgetReached, true)
	if err := m.WatchVectorIndexes(func() []vecindex.IndexStats {
		return []vecindex.IndexStats{{Kind: "hnsw", Len: 10, Bytes: 100}}
	}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	problems, err := promlint.New(strings.NewReader(string(body))).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "svc_") {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}

package semantic

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/demo/demotest"
	"svc/internal/embedding"
	"svc/internal/embedding/embedtest"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/teststore"
)

// eachStore runs body on an SQLite store and on a PostgreSQL one (skipped where PostgreSQL
// does not answer, unless SVC_REQUIRE_POSTGRES=1), as subtests.
func eachStore(t *testing.T, body func(t *testing.T, st store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		body(t, st)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		body(t, teststore.OpenPostgres(t, nil))
	})
}

func ptr[T any](v T) *T { return &v }

// newAccount creates an account with balance micro-USD.
func newAccount(t *testing.T, st store.Store, name string, balance int64) store.Account {
	t.Helper()
	a, _, err := account.New(st, nil).Create(context.Background(), account.Settings{Name: ptr(name), BalanceMicro: ptr(balance)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// importDemo imports the demo KB into the account and returns its chunk count.
func importDemo(t *testing.T, st store.Store, accountID int64) int {
	t.Helper()
	if _, err := st.ImportDocuments(context.Background(), accountID, demotest.Docs(t)); err != nil {
		t.Fatal(err)
	}
	s, err := st.EmbeddingStatus(context.Background(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	return s.Chunks
}

// fakeEmbedder is an Embedder speaking protocol (embedtest.ProtocolOpenAI or ProtocolOllama)
// to srv under model, without retries and with a breaker that never opens, so that a test
// decides every failure with the fake's faults.
func fakeEmbedder(t *testing.T, srv *embedtest.Server, protocol, model string) embedding.Embedder {
	t.Helper()
	cfg := embedding.Config{Provider: protocol, Endpoint: embedding.Endpoint{Model: model, Timeout: 10 * time.Second,
		BreakerFailures: 1 << 20}}
	switch protocol {
	case embedtest.ProtocolOpenAI:
		cfg.BaseURL = srv.OpenAIBaseURL()
	case embedtest.ProtocolOllama:
		cfg.BaseURL = srv.OllamaBaseURL()
	}
	e, err := embedding.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fakeReranker is a Reranker speaking protocol (ProtocolTEI or ProtocolCohere) to srv.
func fakeReranker(t *testing.T, srv *embedtest.Server, protocol string) embedding.Reranker {
	t.Helper()
	cfg := embedding.RerankConfig{Provider: protocol, Endpoint: embedding.Endpoint{Timeout: 10 * time.Second,
		BreakerFailures: 1 << 20}}
	switch protocol {
	case embedtest.ProtocolTEI:
		cfg.BaseURL = srv.TEIBaseURL()
	case embedtest.ProtocolCohere:
		cfg.BaseURL, cfg.Model = srv.CohereBaseURL(), "rerank-test"
	}
	r, err := embedding.NewReranker(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// newWorker is a Worker on st and emb for model, with o's other fields.
func newWorker(t *testing.T, st store.Store, emb embedding.Embedder, model string, o WorkerOptions) *Worker {
	t.Helper()
	o.Store, o.Embedder, o.Model = st, emb, model
	if o.Log == nil {
		o.Log = quiet()
	}
	w, err := NewWorker(o)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// logLines records the messages of a logger's records.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logger() *slog.Logger { return slog.New(&lineHandler{l: l}) }

// count is how many recorded messages contain s.
func (l *logLines) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.lines {
		if strings.Contains(m, s) {
			n++
		}
	}
	return n
}

type lineHandler struct{ l *logLines }

func (h *lineHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *lineHandler) Handle(_ context.Context, r slog.Record) error {
	h.l.mu.Lock()
	h.l.lines = append(h.l.lines, r.Message)
	h.l.mu.Unlock()
	return nil
}
func (h *lineHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *lineHandler) WithGroup(string) slog.Handler      { return h }

// counts is an Observer that counts what it is told.
type counts struct {
	mu       sync.Mutex
	calls    map[string]int // use/kind
	tokens   map[string]int // use
	degraded map[string]int
	reranks  map[string]int // kind ("" = ok)
	loads    int
	failed   int
	stale    int
}

func newCounts() *counts {
	return &counts{calls: map[string]int{}, tokens: map[string]int{}, degraded: map[string]int{}, reranks: map[string]int{}}
}

func (c *counts) EmbeddingCall(use string, tokens int, kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[use+"/"+kind]++
	c.tokens[use] += tokens
}
func (c *counts) SemanticDegraded(reason string) { c.mu.Lock(); c.degraded[reason]++; c.mu.Unlock() }
func (c *counts) RerankCall(kind string)         { c.mu.Lock(); c.reranks[kind]++; c.mu.Unlock() }
func (c *counts) VectorIndexLoad(ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok {
		c.loads++
	} else {
		c.failed++
	}
}
func (c *counts) VectorIndexStale() { c.mu.Lock(); c.stale++; c.mu.Unlock() }

func (c *counts) get(f func(c *counts) int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return f(c)
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// newClock starts at the wall clock's time: the stores stamp rows with it.
func newClock() *clock { return &clock{t: time.Now()} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// openSQLite is an SQLite store for the tests where the store does not matter.
func openSQLite(t *testing.T) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

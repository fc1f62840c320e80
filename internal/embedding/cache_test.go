package embedding

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"svc/internal/circuit/circuittest"
	"svc/internal/embedding/embedtest"
)

func newCache(t *testing.T, opts CacheOptions) (*Cache, *embedtest.Server) {
	t.Helper()
	fake := embedtest.Start(t, embedtest.Options{})
	c := newEmbedder(t, fake, ProviderOpenAI, circuittest.NewClock(), func(cfg *Config) { cfg.APIKey = "" })
	return NewCache(c, "fake-embed", opts), fake
}

func TestCacheHitsPerAccountAndText(t *testing.T) {
	t.Parallel()
	cache, fake := newCache(t, CacheOptions{})
	ctx := context.Background()
	first, err := cache.Query(ctx, 1, "Can I get my money back?")
	if err != nil || first.Cached || first.Tokens <= 0 || first.Model != "fake-embed" {
		t.Fatalf("first: %+v, %v", first, err)
	}
	if embedtest.Cosine(first.Vector, fake.Vector("Can I get my money back?")) < 0.9999 {
		t.Error("not the text's vector")
	}
	steps := []struct {
		account   int64
		text      string
		wantCalls int
		cached    bool
	}{
		{1, "Can I get my money back?", 1, true},
		{1, "  Can I get my\n money back? ", 1, true}, // white space does not count
		{1, "Can I get my money back?", 1, true},      // NFC: nothing to compose here either
		{2, "Can I get my money back?", 2, false},     // another account has its own entry
		{1, "can i get my money back?", 3, false},     // case counts
		{1, "Cafe\u0301 opening hours", 4, false},     // decomposed é
		{1, "Caf\u00e9 opening hours", 4, true},       // composed é: the same text
	}
	for i, s := range steps {
		got, err := cache.Query(ctx, s.account, s.text)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cached != s.cached || fake.CallCount() != s.wantCalls {
			t.Errorf("step %d %q: cached %v after %d calls, want %v after %d", i, s.text, got.Cached, fake.CallCount(), s.cached, s.wantCalls)
		}
		if got.Cached && got.Tokens != 0 {
			t.Errorf("step %d: a cached vector cost %d tokens", i, got.Tokens)
		}
	}
	// The caller's copy is its own.
	got, _ := cache.Query(ctx, 1, "Can I get my money back?")
	got.Vector[0] = 42
	again, _ := cache.Query(ctx, 1, "Can I get my money back?")
	if again.Vector[0] == 42 {
		t.Error("a caller changed the cached vector")
	}
	if st := cache.Stats(); st.Misses != 4 || st.Entries != 4 || st.Hits < 5 {
		t.Errorf("stats %+v", st)
	}
}

func TestCacheKeepsNoErrors(t *testing.T) {
	t.Parallel()
	cache, fake := newCache(t, CacheOptions{})
	fake.Push(embedtest.Fault{Status: 400})
	if _, err := cache.Query(context.Background(), 1, "refund"); err == nil {
		t.Fatal("no error")
	}
	if got, err := cache.Query(context.Background(), 1, "refund"); err != nil || got.Cached || fake.CallCount() != 2 {
		t.Errorf("after an error: %+v, %v, %d calls", got, err, fake.CallCount())
	}
	if _, err := cache.Query(context.Background(), 1, " \t"); !errors.Is(err, ErrEmptyText) {
		t.Errorf("empty query: %v", err)
	}
}

func TestCacheBounds(t *testing.T) {
	t.Parallel()
	perEntry := size(make([]float32, embedtest.Dim))
	tests := []struct {
		name string
		opts CacheOptions
	}{
		{"by entries", CacheOptions{MaxEntries: 2}},
		{"by bytes", CacheOptions{MaxBytes: 2*perEntry + perEntry/2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cache, fake := newCache(t, tc.opts)
			ctx := context.Background()
			for _, q := range []string{"refund", "shipping", "refund", "password"} { // refund used again: shipping is the oldest
				if _, err := cache.Query(ctx, 1, q); err != nil {
					t.Fatal(err)
				}
			}
			if st := cache.Stats(); st.Entries != 2 || st.Bytes != 2*perEntry {
				t.Errorf("stats %+v, want 2 entries of %d bytes", st, perEntry)
			}
			calls := fake.CallCount()
			if got, _ := cache.Query(ctx, 1, "refund"); !got.Cached {
				t.Error("the recently used entry was evicted")
			}
			if got, _ := cache.Query(ctx, 1, "shipping"); got.Cached || fake.CallCount() != calls+1 {
				t.Error("the least recently used entry was kept")
			}
		})
	}
}

// gate is an Embedder whose first call waits for release, counting calls.
type gate struct {
	calls   atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func (g *gate) Embed(ctx context.Context, texts []string, kind Kind) (Result, error) {
	if g.calls.Add(1) == 1 {
		close(g.entered)
		<-g.release
	}
	return Result{Vectors: [][]float32{{1, 0}}, Model: "m", Dim: 2, Tokens: 7}, nil
}

func TestCacheCoalescesConcurrentMisses(t *testing.T) {
	t.Parallel()
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	cache := NewCache(g, "m", CacheOptions{})
	const n = 16
	results := make(chan QueryVector, n)
	var wg sync.WaitGroup
	query := func() {
		got, err := cache.Query(context.Background(), 9, "Wo ist mein Paket?")
		if err != nil {
			t.Error(err)
		}
		results <- got
	}
	wg.Go(query)
	<-g.entered // the first miss is with the provider
	for range n - 1 {
		wg.Go(query)
	}
	close(g.release)
	wg.Wait()
	close(results)
	tokens, uncached := 0, 0
	for r := range results {
		tokens += r.Tokens
		if !r.Cached {
			uncached++
		}
		if len(r.Vector) != 2 || r.Vector[0] != 1 {
			t.Errorf("vector %v", r.Vector)
		}
	}
	if g.calls.Load() != 1 || tokens != 7 || uncached != 1 {
		t.Errorf("%d provider calls, %d tokens billed, %d uncached; want 1, 7 (once), 1", g.calls.Load(), tokens, uncached)
	}
	if st := cache.Stats(); st.Misses != 1 || st.Hits+st.Shared != n-1 {
		t.Errorf("stats %+v", st)
	}
}

func TestCacheWaiterMayGiveUp(t *testing.T) {
	t.Parallel()
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	cache := NewCache(g, "m", CacheOptions{})
	done := make(chan error, 1)
	go func() {
		_, err := cache.Query(context.Background(), 1, "hello")
		done <- err
	}()
	<-g.entered
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cache.Query(ctx, 1, "hello"); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled waiter got %v", err)
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Errorf("the first caller: %v", err)
	}
	if got, err := cache.Query(context.Background(), 1, "hello"); err != nil || !got.Cached {
		t.Errorf("the vector was not kept: %+v, %v", got, err)
	}
}

// BenchmarkCacheHit is what a repeated question's vector costs.
func BenchmarkCacheHit(b *testing.B) {
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	close(g.release)
	cache := NewCache(g, "m", CacheOptions{})
	ctx := context.Background()
	if _, err := cache.Query(ctx, 1, "Wo ist mein Paket?"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got, _ := cache.Query(ctx, 1, "Wo ist mein Paket?"); !got.Cached {
			b.Fatal("miss")
		}
	}
}

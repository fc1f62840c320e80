package semantic

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"svc/internal/demo/demotest"
	"svc/internal/embedding"
	"svc/internal/embedding/embedtest"
	"svc/internal/engine"
	"svc/internal/store"
)

// returnsTitles are the demo KB's documents about returns and refunds, in its three
// languages.
var returnsTitles = []string{"Returns and refunds", "How do I return an item?", "İade ve değişim", "İade nasıl yapılır?",
	"Rückgabe und Erstattung"}

// newService is a Service on st and emb for model, with o's other fields.
func newService(t *testing.T, st store.Store, emb embedding.Embedder, model string, o Options) *Service {
	t.Helper()
	o.Store, o.Embedder, o.Model = st, emb, model
	if o.Log == nil {
		o.Log = quiet()
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// embedded is an account holding the demo KB, every chunk embedded under model through emb.
func embedded(t *testing.T, st store.Store, emb embedding.Embedder, model string) store.Account {
	t.Helper()
	a := newAccount(t, st, "Shop", 0)
	importDemo(t, st, a.ID)
	if _, err := newWorker(t, st, emb, model, WorkerOptions{}).EmbedAccount(context.Background(), a.ID); err != nil {
		t.Fatal(err)
	}
	return a
}

// topTitle is the title of the document of the search's best hit.
func topTitle(t *testing.T, st store.Store, accountID int64, vs []int64) string {
	t.Helper()
	if len(vs) == 0 {
		return ""
	}
	hits, err := st.ChunksByID(context.Background(), accountID, vs[:1])
	if err != nil || len(hits) != 1 {
		t.Fatalf("chunk %d: %v, %v", vs[0], hits, err)
	}
	return hits[0].Title
}

func hitIDs(vs []engine.VectorHit) []int64 {
	out := make([]int64, len(vs))
	for i, h := range vs {
		out[i] = h.ChunkID
	}
	return out
}

// A question worded unlike the page ("money back" against "Returns and refunds") finds the
// returns page through each embedding protocol, on each store; the question's tokens are
// reported once, and a repeat comes from the cache.
func TestServiceFindsParaphrase(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{embedtest.ProtocolOpenAI, embedtest.ProtocolOllama} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			eachStore(t, func(t *testing.T, st store.Store) {
				ctx := context.Background()
				srv := embedtest.Start(t, embedtest.Options{})
				emb := fakeEmbedder(t, srv, protocol, "concepts")
				a := embedded(t, st, emb, "concepts")
				obs := newCounts()
				s := newService(t, st, emb, "concepts", Options{Metrics: obs})
				vs, err := s.SearchVectors(ctx, a.ID, "Can I get my money back?", 8)
				if err != nil || len(vs.Hits) != 8 || vs.Model != "concepts" || vs.Tokens <= 0 {
					t.Fatalf("search: %+v, %v", vs, err)
				}
				if title := topTitle(t, st, a.ID, hitIDs(vs.Hits)); !slices.Contains(returnsTitles, title) {
					t.Errorf("the best hit is on %q, want a returns page", title)
				}
				if !slices.IsSortedFunc(vs.Hits, func(x, y engine.VectorHit) int {
					switch {
					case x.Score > y.Score:
						return -1
					case x.Score < y.Score:
						return 1
					}
					return 0
				}) {
					t.Errorf("hits not best first: %+v", vs.Hits)
				}
				calls := srv.CallCount()
				again, err := s.SearchVectors(ctx, a.ID, "Can I  get my money back?", 8)
				if err != nil || again.Tokens != 0 || srv.CallCount() != calls || again.Hits[0] != vs.Hits[0] {
					t.Errorf("a repeat: %+v, %v, %d calls (was %d)", again, err, srv.CallCount(), calls)
				}
				if obs.get(func(c *counts) int { return c.calls["query/"] }) != 1 || obs.get(func(c *counts) int { return c.loads }) != 1 {
					t.Errorf("observed %+v", obs)
				}
				// Another account's index is its own: an account with no vectors finds nothing.
				b := newAccount(t, st, "Other", 0)
				if vs, err := s.SearchVectors(ctx, b.ID, "Can I get my money back?", 8); err != nil || len(vs.Hits) != 0 {
					t.Errorf("an account without vectors: %+v, %v", vs, err)
				}
			})
		})
	}
}

// A provider that hangs or is down costs a search at most the query timeout and no hits, a
// nil error, one log line for the outage and one when it ends, and counts as degraded.
func TestServiceDegradesWhenProviderFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openSQLite(t)
	srv := embedtest.Start(t, embedtest.Options{})
	emb := fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m")
	a := embedded(t, st, emb, "m")
	obs := newCounts()
	var logs logLines
	const timeout = 300 * time.Millisecond
	s := newService(t, st, emb, "m", Options{QueryTimeout: timeout, Metrics: obs, Log: logs.logger(),
		Reranker: fakeReranker(t, srv, embedtest.ProtocolTEI)})

	// Hangs: each question waits the timeout, not the provider's minute.
	srv.SetDefault(embedtest.Fault{Delay: time.Minute})
	for _, q := range []string{"Where is my parcel?", "Do you ship to Austria?"} {
		start := time.Now()
		vs, err := s.SearchVectors(ctx, a.ID, q, 8)
		if took := time.Since(start); err != nil || len(vs.Hits) != 0 || vs.Tokens != 0 || took > timeout+2*time.Second {
			t.Fatalf("%q while the provider hangs: %+v, %v after %v", q, vs, err, took)
		}
		start = time.Now()
		if sc := s.Rerank(ctx, q, []string{"a", "b"}); sc != nil || time.Since(start) > timeout+2*time.Second {
			t.Fatalf("rerank while the provider hangs: %v after %v", sc, time.Since(start))
		}
	}
	// Down: refused at once.
	srv.SetDefault(embedtest.Fault{Status: 503})
	for _, q := range []string{"Can I pay in instalments?", "How do I return boots?"} {
		if vs, err := s.SearchVectors(ctx, a.ID, q, 8); err != nil || len(vs.Hits) != 0 {
			t.Fatalf("%q while the provider is down: %+v, %v", q, vs, err)
		}
	}
	if n := obs.get(func(c *counts) int { return c.degraded["provider"] }); n != 4 {
		t.Errorf("%d degraded searches counted, want 4", n)
	}
	if n := obs.get(func(c *counts) int { return c.calls["query/timeout"] }); n != 2 {
		t.Errorf("%d timeouts counted, want 2 (%+v)", n, obs.calls)
	}
	if n := obs.get(func(c *counts) int { return c.calls["query/server_error"] }); n != 2 {
		t.Errorf("%d server errors counted, want 2 (%+v)", n, obs.calls)
	}
	if n := logs.count("embedding provider (questions) failing"); n != 1 {
		t.Errorf("%d outage lines for 4 failed searches, want 1", n)
	}
	if n := logs.count("reranker failing"); n != 1 {
		t.Errorf("%d reranker outage lines, want 1", n)
	}
	srv.SetDefault(embedtest.Fault{})
	vs, err := s.SearchVectors(ctx, a.ID, "Can I get my money back?", 8)
	if err != nil || len(vs.Hits) == 0 {
		t.Fatalf("after the outage: %+v, %v", vs, err)
	}
	if n := logs.count("embedding provider (questions) answering again"); n != 1 {
		t.Errorf("%d recovery lines, want 1", n)
	}
	// A visitor who leaves is nobody's outage.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if vs, err := s.SearchVectors(cctx, a.ID, "A question never asked", 8); err != nil || len(vs.Hits) != 0 {
		t.Errorf("a cancelled search: %+v, %v", vs, err)
	}
	if n := obs.get(func(c *counts) int { return c.degraded["provider"] }); n != 4 {
		t.Errorf("a cancelled search counted as degraded (%d)", n)
	}
}

// The reranker is called through each protocol with the question and the texts, and its
// scores put the text that answers first; a blank text scores below the others.
func TestServiceRerankReorders(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{embedtest.ProtocolTEI, embedtest.ProtocolCohere} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			st := openSQLite(t)
			srv := embedtest.Start(t, embedtest.Options{})
			obs := newCounts()
			s := newService(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m"), "m",
				Options{Reranker: fakeReranker(t, srv, protocol), Metrics: obs})
			texts := []string{
				"Shipping and delivery\nOrders leave our warehouse within two working days.",
				"",
				"Payment options\nWe accept credit cards and instalments.",
				"Returns and refunds\nYou can return items within 30 days and we refund the full price.",
			}
			scores := s.Rerank(context.Background(), "Can I get my money back?", texts)
			if len(scores) != len(texts) {
				t.Fatalf("scores %v", scores)
			}
			best := 0
			for i, sc := range scores {
				if sc > scores[best] {
					best = i
				}
			}
			if best != 3 {
				t.Errorf("best text %d (scores %v), want the returns text", best, scores)
			}
			if slices.Min(scores) != scores[1] {
				t.Errorf("the blank text scores %v, not the lowest of %v", scores[1], scores)
			}
			calls := srv.Calls()
			if len(calls) != 1 || calls[0].Protocol != protocol || calls[0].Query != "Can I get my money back?" ||
				len(calls[0].Documents) != 3 {
				t.Fatalf("rerank calls %+v", calls)
			}
			if obs.get(func(c *counts) int { return c.reranks[""] }) != 1 {
				t.Errorf("rerank not counted: %+v", obs.reranks)
			}
		})
	}
	// Without a reranker, nil: the caller keeps its order.
	st := openSQLite(t)
	srv := embedtest.Start(t, embedtest.Options{})
	s := newService(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m"), "m", Options{})
	if sc := s.Rerank(context.Background(), "q", []string{"a"}); sc != nil {
		t.Errorf("without a reranker: %v", sc)
	}
}

// An index follows the store: another process's write (a re-import embedded by its own
// worker) is seen once CheckEvery has passed, by a reload; this process's worker keeps the
// index current without one.
func TestServiceIndexFollowsTheStore(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		srv := embedtest.Start(t, embedtest.Options{})
		emb := fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m")
		a := newAccount(t, st, "Shop", 0)
		chunks := importDemo(t, st, a.ID)
		clk := newClock()
		obs := newCounts()
		s := newService(t, st, emb, "m", Options{Now: clk.Now, CheckEvery: 5 * time.Second, Metrics: obs})
		const q = "Can I get my money back?"

		// This process embeds the KB in batches while the account is searched: the index,
		// loaded when a third was embedded, is kept current by the worker's writes.
		srv.Push(embedtest.Fault{}, embedtest.Fault{}, embedtest.Fault{Status: 503})
		local := newWorker(t, st, emb, "m", WorkerOptions{Batch: chunks / 3, Service: s})
		if _, err := local.EmbedAccount(ctx, a.ID); !errors.Is(err, ErrProviderDown) {
			t.Fatalf("the first third: %v", err)
		}
		if _, err := s.SearchVectors(ctx, a.ID, q, 200); err != nil {
			t.Fatal(err)
		}
		if _, err := local.EmbedAccount(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Minute)
		vs, err := s.SearchVectors(ctx, a.ID, q, 500)
		if err != nil || len(vs.Hits) != chunks {
			t.Fatalf("after this process embedded the rest: %d hits of %d chunks, %v", len(vs.Hits), chunks, err)
		}
		if n, st := obs.get(func(c *counts) int { return c.loads }), obs.get(func(c *counts) int { return c.stale }); n != 1 || st != 0 {
			t.Fatalf("this process's writes cost %d loads and %d stale drops, want 1 and 0", n, st)
		}
		// Every hit names its chunk's document and language, those loaded from the store and
		// those the worker added alike: the engine reads only the chunks it shows.
		rows, err := st.ChunksByID(ctx, a.ID, hitIDs(vs.Hits))
		if err != nil || len(rows) != len(vs.Hits) {
			t.Fatalf("chunks of the hits: %d, %v", len(rows), err)
		}
		for i, h := range vs.Hits {
			if h.DocID != rows[i].DocID || h.Lang != rows[i].Lang || h.DocID == 0 || h.Lang == "" {
				t.Fatalf("hit %+v, chunk of document %d in %q", h, rows[i].DocID, rows[i].Lang)
			}
		}

		// Another process changes the returns page and embeds it: its old chunks are gone
		// from the store, new ones have vectors.
		docs := demotest.Docs(t)
		i := slices.IndexFunc(docs, func(d store.Document) bool { return d.Title == "Returns and refunds" })
		changed := docs[i]
		changed.Hash = "changed elsewhere"
		changed.Chunks = slices.Clone(changed.Chunks)
		changed.Chunks[0].Text = "Refunds: we pay your money back within five days of receiving the parcel."
		if _, err := st.ImportDocuments(ctx, a.ID, []store.Document{changed}); err != nil {
			t.Fatal(err)
		}
		other := newWorker(t, st, emb, "m", WorkerOptions{})
		if _, err := other.EmbedAccount(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		fresh, _ := st.ChunksToEmbed(ctx, a.ID, "m", 0, 1)
		if len(fresh) != 0 {
			t.Fatal("the other process left work")
		}
		current := currentIDs(t, st, a.ID)
		// Within CheckEvery the index is not re-read: it still holds the deleted chunks.
		vs, _ = s.SearchVectors(ctx, a.ID, q, 500)
		if !holdsMissing(vs, current) {
			t.Fatal("the stale index was dropped before CheckEvery passed (a read per search?)")
		}
		clk.Advance(5 * time.Second)
		vs, _ = s.SearchVectors(ctx, a.ID, q, 500)
		if holdsMissing(vs, current) || len(vs.Hits) != len(current) {
			t.Fatalf("after CheckEvery the index still differs from the store: %d hits, %d chunks", len(vs.Hits), len(current))
		}
		if n, st := obs.get(func(c *counts) int { return c.loads }), obs.get(func(c *counts) int { return c.stale }); n != 2 || st != 1 {
			t.Fatalf("%d loads and %d stale drops, want 2 and 1", n, st)
		}
		if title := topTitle(t, st, a.ID, hitIDs(vs.Hits)); !slices.Contains(returnsTitles, title) {
			t.Errorf("after the reload the best hit is on %q", title)
		}

		// A KB write in this process (Notify) is checked at the next search, not after
		// CheckEvery.
		if err := st.DeleteDocument(ctx, a.ID, vsDoc(t, st, a.ID, vs)); err != nil {
			t.Fatal(err)
		}
		local.Notify(a.ID)
		current = currentIDs(t, st, a.ID)
		vs, _ = s.SearchVectors(ctx, a.ID, q, 500)
		if holdsMissing(vs, current) {
			t.Fatal("a deletion in this process was not seen at the next search")
		}
	})
}

// currentIDs are the account's chunk ids with a vector of model m.
func currentIDs(t *testing.T, st store.Store, accountID int64) map[int64]bool {
	t.Helper()
	ids := map[int64]bool{}
	err := st.ChunkVectors(context.Background(), accountID, "m", func(v store.StoredVector) error {
		ids[v.ChunkID] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// holdsMissing says whether a search returned a chunk that is no longer in current.
func holdsMissing(vs engine.VectorSearch, current map[int64]bool) bool {
	for _, h := range vs.Hits {
		if !current[h.ChunkID] {
			return true
		}
	}
	return false
}

// vsDoc is the document of the search's best hit.
func vsDoc(t *testing.T, st store.Store, accountID int64, vs engine.VectorSearch) int64 {
	t.Helper()
	hits, err := st.ChunksByID(context.Background(), accountID, hitIDs(vs.Hits[:1]))
	if err != nil || len(hits) != 1 {
		t.Fatal(err)
	}
	return hits[0].DocID
}

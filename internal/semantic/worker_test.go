package semantic

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/billing"
	"svc/internal/demo/demotest"
	"svc/internal/embedding/embedtest"
	"svc/internal/store"
)

// The worker embeds an imported KB through each embedding wire protocol, on each store: every
// chunk gets a vector of the model, each batch is one embedding usage event carrying the
// provider's tokens and its price, and the charge reaches the ledger.
func TestWorkerEmbedsImportedKB(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{embedtest.ProtocolOpenAI, embedtest.ProtocolOllama} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			eachStore(t, func(t *testing.T, st store.Store) {
				ctx := context.Background()
				srv := embedtest.Start(t, embedtest.Options{})
				a := newAccount(t, st, "Shop", 5_000_000)
				chunks := importDemo(t, st, a.ID)
				const price = 20_000 // 0.02 USD per million tokens
				obs := newCounts()
				w := newWorker(t, st, fakeEmbedder(t, srv, protocol, "concepts-v1"), "concepts-v1",
					WorkerOptions{PricePerMTok: price, Batch: 16, Metrics: obs})
				rep, err := w.EmbedAccount(ctx, a.ID)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Embedded != chunks || rep.Vectors != chunks || rep.Chunks != chunks || rep.Refused != 0 || rep.Tokens == 0 {
					t.Fatalf("report %+v, want all %d chunks embedded", rep, chunks)
				}
				status, err := st.EmbeddingStatus(ctx, a.ID)
				if err != nil || len(status.Models) != 1 || status.Models[0].Model != "concepts-v1" ||
					status.Models[0].Vectors != chunks || status.Models[0].Dim != 256 || status.Models[0].Encoding != "f16" {
					t.Fatalf("status %+v, %v", status, err)
				}
				// Every call spoke the protocol with a document's title, heading and text.
				calls := srv.Calls()
				if len(calls) != (chunks+15)/16 {
					t.Errorf("%d provider calls for %d chunks in batches of 16", len(calls), chunks)
				}
				for _, c := range calls {
					if c.Protocol != protocol || c.Model != "concepts-v1" || len(c.Input) == 0 || len(c.Input) > 16 {
						t.Fatalf("call %+v", c)
					}
				}
				// Usage: one embedding event a batch, the tokens the provider reported, priced.
				sum, err := st.UsageSummary(ctx, a.ID, time.Time{}, 100)
				if err != nil {
					t.Fatal(err)
				}
				ev := sum.ByEvent[store.EventEmbedding]
				if ev.Count != len(calls) {
					t.Errorf("%d embedding events, want one per batch (%d)", ev.Count, len(calls))
				}
				tokens := 0
				var cost int64
				for _, e := range sum.Recent {
					if e.EventType != store.EventEmbedding {
						t.Fatalf("event %+v", e)
					}
					if e.InputTokens <= 0 || e.CostMicro != billing.Cost(e.InputTokens, 0, price, 0) {
						t.Errorf("event %+v: cost is not its tokens at the price", e)
					}
					tokens += e.InputTokens
					cost += e.CostMicro
					calls, err := st.UsageCalls(ctx, a.ID, e.ID)
					if err != nil || len(calls) != 1 || calls[0].Call != EmbeddingCall || calls[0].Model != "concepts-v1" ||
						calls[0].InputTokens != e.InputTokens {
						t.Fatalf("calls of event %d: %+v, %v", e.ID, calls, err)
					}
				}
				if tokens != rep.Tokens || cost != rep.CostMicro || cost == 0 || obs.get(func(c *counts) int { return c.tokens["document"] }) != tokens {
					t.Errorf("events hold %d tokens for %d micro-USD; the report says %d, %d", tokens, cost, rep.Tokens, rep.CostMicro)
				}
				after, err := st.GetAccount(ctx, a.ID)
				if err != nil || after.BalanceMicro != 5_000_000-cost {
					t.Errorf("balance %d, want %d", after.BalanceMicro, 5_000_000-cost)
				}
				// Nothing is left to do: a second run calls nobody and bills nothing.
				rep, err = w.EmbedAccount(ctx, a.ID)
				if err != nil || rep.Embedded != 0 || srv.CallCount() != len(calls) {
					t.Errorf("second run: %+v, %v, %d calls", rep, err, srv.CallCount())
				}
			})
		})
	}
}

// A document changed by a re-import gets new chunks, and only those are embedded again.
func TestWorkerReembedsChangedChunks(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		srv := embedtest.Start(t, embedtest.Options{})
		a := newAccount(t, st, "Shop", 0)
		importDemo(t, st, a.ID)
		w := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m"), "m", WorkerOptions{})
		if _, err := w.EmbedAccount(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		before := srv.CallCount()
		docs := demotest.Docs(t)
		i := slices.IndexFunc(docs, func(d store.Document) bool { return d.Title == "Returns and refunds" })
		if i < 0 {
			t.Fatal("the demo KB has no returns page")
		}
		changed := docs[i]
		changed.Hash = "changed"
		changed.Chunks = slices.Clone(changed.Chunks)
		changed.Chunks[0].Text += " Store credit never expires."
		if _, err := st.ImportDocuments(ctx, a.ID, []store.Document{changed}); err != nil {
			t.Fatal(err)
		}
		todo, err := st.ChunksToEmbed(ctx, a.ID, "m", 0, 1000)
		if err != nil || len(todo) != len(changed.Chunks) {
			t.Fatalf("%d chunks to embed after the change, want the document's %d (%v)", len(todo), len(changed.Chunks), err)
		}
		rep, err := w.EmbedAccount(ctx, a.ID)
		if err != nil || rep.Embedded != len(changed.Chunks) || rep.Vectors != rep.Chunks {
			t.Fatalf("after the change: %+v, %v", rep, err)
		}
		calls := srv.Calls()[before:]
		if len(calls) != 1 || !strings.Contains(strings.Join(calls[0].Input, "\n"), "Store credit never expires.") {
			t.Fatalf("re-embedding calls %+v", calls)
		}
	})
}

// A model change: the new model's queue is every chunk; the old model's vectors stay until
// the new one covers the account, then they are deleted.
func TestWorkerModelChange(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		srv := embedtest.Start(t, embedtest.Options{})
		a := newAccount(t, st, "Shop", 0)
		chunks := importDemo(t, st, a.ID)
		old := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOllama, "old"), "old", WorkerOptions{})
		if _, err := old.EmbedAccount(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		// The new model's first batch fails halfway through the KB: both models' vectors stay.
		srv.Push(embedtest.Fault{}, embedtest.Fault{Status: 503})
		nw := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "new"), "new", WorkerOptions{Batch: 20})
		rep, err := nw.EmbedAccount(ctx, a.ID)
		if !errors.Is(err, ErrProviderDown) || rep.Embedded != 20 {
			t.Fatalf("interrupted run: %+v, %v", rep, err)
		}
		status, _ := st.EmbeddingStatus(ctx, a.ID)
		if len(status.Models) != 2 {
			t.Fatalf("while the new model does not cover the KB: %+v", status)
		}
		rep, err = nw.EmbedAccount(ctx, a.ID)
		if err != nil || rep.Embedded != chunks-20 || rep.Vectors != chunks || rep.DeletedOther != chunks {
			t.Fatalf("completed run: %+v, %v (chunks %d)", rep, err, chunks)
		}
		status, _ = st.EmbeddingStatus(ctx, a.ID)
		if len(status.Models) != 1 || status.Models[0].Model != "new" || status.Models[0].Vectors != chunks {
			t.Fatalf("after the change: %+v", status)
		}
		if todo, _ := st.ChunksToEmbed(ctx, a.ID, "old", 0, 1); len(todo) != 1 {
			t.Error("the old model's vectors were not deleted")
		}
	})
}

// timers is the worker's After: each wait it asks for is sent to asked, and fire ends it.
type timers struct {
	asked chan time.Duration
	fire  chan time.Time
	done  chan struct{} // closed when the test ends: waits are no longer reported
}

func newTimers() *timers {
	return &timers{asked: make(chan time.Duration), fire: make(chan time.Time), done: make(chan struct{})}
}

func (tm *timers) after(d time.Duration) <-chan time.Time {
	select {
	case tm.asked <- d:
	case <-tm.done:
	}
	return tm.fire
}

// next waits for the worker's next wait (the end of a pass) and returns its length.
func (tm *timers) next(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-tm.asked:
		return d
	case <-time.After(30 * time.Second):
		t.Fatal("the worker never finished its pass")
		return 0
	}
}

// While the provider is down the worker backs off, doubling its wait, logs the outage once,
// and is not woken by writes; when it answers again the next pass embeds everything.
func TestWorkerOutageBacksOffAndResumes(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		srv := embedtest.Start(t, embedtest.Options{})
		a := newAccount(t, st, "Shop", 0)
		chunks := importDemo(t, st, a.ID)
		tm := newTimers()
		var logs logLines
		w := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m"), "m", WorkerOptions{After: tm.after,
			MinBackoff: 5 * time.Second, MaxBackoff: 12 * time.Second, Log: logs.logger()})
		srv.SetDefault(embedtest.Fault{Status: 503})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); w.Run(ctx) }()
		t.Cleanup(func() { cancel(); close(tm.done); <-done })

		for i, want := range []time.Duration{5 * time.Second, 10 * time.Second, 12 * time.Second, 12 * time.Second} {
			if d := tm.next(t); d != want {
				t.Fatalf("wait %d: %v, want %v", i, d, want)
			}
			if i == 0 {
				w.Notify(a.ID) // a write during the outage does not cut the backoff short
			}
			tm.fire <- time.Time{}
		}
		if d := tm.next(t); d != 12*time.Second {
			t.Fatalf("still down: wait %v", d)
		}
		if n := logs.count("failing"); n != 1 {
			t.Errorf("%d outage lines for 5 failed passes, want 1", n)
		}
		if s, _ := st.EmbeddingStatus(context.Background(), a.ID); len(s.Models) != 0 {
			t.Fatalf("vectors stored during the outage: %+v", s)
		}
		srv.SetDefault(embedtest.Fault{})
		tm.fire <- time.Time{}
		if d := tm.next(t); d != DefaultPoll {
			t.Fatalf("after the outage the worker waits %v, want the poll", d)
		}
		if s, _ := st.EmbeddingStatus(context.Background(), a.ID); len(s.Models) != 1 || s.Models[0].Vectors != chunks {
			t.Fatalf("after the outage: %+v", s)
		}
		if n := logs.count("answering again"); n != 1 {
			t.Errorf("%d recovery lines, want 1", n)
		}
		// A write in this process wakes it before the poll.
		docs := demotest.Docs(t)[:1]
		docs[0].Hash, docs[0].Chunks[0].Text = "new", docs[0].Chunks[0].Text+" Updated."
		if _, err := st.ImportDocuments(context.Background(), a.ID, docs); err != nil {
			t.Fatal(err)
		}
		w.Notify(a.ID)
		if d := tm.next(t); d != DefaultPoll {
			t.Fatalf("wait %v", d)
		}
		if todo, _ := st.ChunksToEmbed(context.Background(), a.ID, "m", 0, 10); len(todo) != 0 {
			t.Fatalf("Notify did not wake the worker: %d chunks left", len(todo))
		}
	})
}

// An account that cannot pay for its embeddings is paused before any provider call (logged
// once), keyword search untouched; a top-up resumes it at the next pass.
func TestWorkerCannotPayPausesUntilTopUp(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		srv := embedtest.Start(t, embedtest.Options{})
		a := newAccount(t, st, "Poor", 1) // one micro-USD
		chunks := importDemo(t, st, a.ID)
		rich := newAccount(t, st, "Rich", 5_000_000)
		importDemo(t, st, rich.ID)
		var logs logLines
		const price = 50 * billing.MicroPerUSD // 50 USD per million tokens: a batch costs more than 1 micro-USD
		w := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m"), "m",
			WorkerOptions{PricePerMTok: price, Log: logs.logger()})
		for range 2 {
			if err := w.pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range srv.Calls() {
			if len(c.Input) > 0 && c.Model == "m" && w.o.PricePerMTok > 0 && slices.ContainsFunc(c.Input, func(s string) bool { return s == "" }) {
				t.Fatal("an empty text was sent")
			}
		}
		poor, _ := st.EmbeddingStatus(ctx, a.ID)
		ok, _ := st.EmbeddingStatus(ctx, rich.ID)
		if len(poor.Models) != 0 || len(ok.Models) != 1 || ok.Models[0].Vectors != chunks {
			t.Fatalf("poor %+v, rich %+v", poor, ok)
		}
		if n := logs.count("embedding paused"); n != 1 {
			t.Errorf("%d pause lines over two passes, want 1", n)
		}
		sum, _ := st.UsageSummary(ctx, a.ID, time.Time{}, 10)
		if sum.AllTimeCount != 0 {
			t.Errorf("the poor account was billed: %+v", sum)
		}
		calls := srv.CallCount()
		if _, err := st.AddBalance(ctx, a.ID, 10_000_000, "top-up"); err != nil {
			t.Fatal(err)
		}
		if err := w.pass(ctx); err != nil {
			t.Fatal(err)
		}
		poor, _ = st.EmbeddingStatus(ctx, a.ID)
		if len(poor.Models) != 1 || poor.Models[0].Vectors != chunks || srv.CallCount() == calls {
			t.Fatalf("after the top-up: %+v", poor)
		}
		if n := logs.count("embedding resumed"); n != 1 {
			t.Errorf("%d resume lines, want 1", n)
		}
		sum, _ = st.UsageSummary(ctx, a.ID, time.Time{}, 10)
		if ev := sum.ByEvent[store.EventEmbedding]; ev.Count == 0 || ev.CostMicro == 0 {
			t.Errorf("after the top-up the embeddings were not billed: %+v", sum.ByEvent)
		}
	})
}

// A chunk the provider refuses on its own (a 4xx) is left out and the rest embedded; the
// whole batch is not lost, and the refused chunk is not sent again before RetryRefused.
func TestWorkerRefusedChunkIsSkipped(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		srv := embedtest.Start(t, embedtest.Options{})
		a := newAccount(t, st, "Shop", 0)
		chunks := importDemo(t, st, a.ID)
		clk := newClock()
		// The first batch is refused whole, then its first chunk alone.
		srv.Push(embedtest.Fault{Status: 400, Message: "input too long"}, embedtest.Fault{Status: 400, Message: "input too long"})
		w := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "m"), "m",
			WorkerOptions{Batch: 8, Now: clk.Now, RetryRefused: time.Hour})
		if err := w.pass(ctx); err != nil {
			t.Fatal(err)
		}
		s, _ := st.EmbeddingStatus(ctx, a.ID)
		if len(s.Models) != 1 || s.Models[0].Vectors != chunks-1 {
			t.Fatalf("after a refused chunk: %+v (chunks %d)", s, chunks)
		}
		calls := srv.CallCount()
		if err := w.pass(ctx); err != nil || srv.CallCount() != calls {
			t.Fatalf("the refused chunk was sent again at once (%d calls, was %d)", srv.CallCount(), calls)
		}
		clk.Advance(time.Hour)
		if err := w.pass(ctx); err != nil {
			t.Fatal(err)
		}
		if s, _ = st.EmbeddingStatus(ctx, a.ID); s.Models[0].Vectors != chunks {
			t.Fatalf("after RetryRefused: %+v", s)
		}
	})
}

// Two workers (two replicas, or `svc kb reindex` beside a server) never embed one account
// side by side: while another process holds its lease, a worker calls no provider and bills
// nothing; once the lease is released (or expires) it embeds the account, and releases the
// lease when done.
func TestWorkerLeavesAnAccountLeasedElsewhere(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		srv := embedtest.Start(t, embedtest.Options{})
		a := newAccount(t, st, "Shared", 5_000_000)
		chunks := importDemo(t, st, a.ID)
		w := newWorker(t, st, fakeEmbedder(t, srv, embedtest.ProtocolOpenAI, "concepts-v1"), "concepts-v1",
			WorkerOptions{PricePerMTok: 20_000, Batch: 16})
		if ok, err := st.LeaseEmbedding(ctx, a.ID, "other-replica", time.Now().Add(time.Hour)); err != nil || !ok {
			t.Fatalf("lease: %v %v", ok, err)
		}
		rep, err := w.EmbedAccount(ctx, a.ID)
		if !errors.Is(err, ErrBusy) || rep.Embedded != 0 {
			t.Fatalf("embedding a leased account: %+v, %v; want ErrBusy", rep, err)
		}
		if n := len(srv.Calls()); n != 0 {
			t.Fatalf("%d provider calls while another process held the lease", n)
		}
		if sum, err := st.UsageSummary(ctx, a.ID, time.Time{}, 10); err != nil || sum.AllTimeCount != 0 {
			t.Fatalf("usage while leased elsewhere: %+v, %v", sum, err)
		}
		if err := st.ReleaseEmbedding(ctx, a.ID, "other-replica"); err != nil {
			t.Fatal(err)
		}
		if rep, err = w.EmbedAccount(ctx, a.ID); err != nil || rep.Embedded != chunks {
			t.Fatalf("after the release: %+v, %v", rep, err)
		}
		// Done, the worker let the lease go: the other process may take it at once.
		if ok, err := st.LeaseEmbedding(ctx, a.ID, "other-replica", time.Now().Add(time.Hour)); err != nil || !ok {
			t.Fatalf("the worker kept its lease: %v %v", ok, err)
		}
	})
}

package embedding

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/circuit/circuittest"
	"svc/internal/embedding/embedtest"
)

var rerankProviders = []string{RerankTEI, RerankCohere}

// rerankDocs are candidates for "Can I get my money back?": only the first speaks of it, in
// other words.
var rerankDocs = []string{
	"Reimbursement policy: items sent back within 30 days are reimbursed in full.",
	"Shipping takes two to three business days.",
	"Our store is open Monday to Friday.",
	"Rückerstattung: Geld zurück innerhalb von 14 Tagen.",
	"Forgot your password? Reset it from the sign-in page.",
}

func TestRerankOrdersByRelevance(t *testing.T) {
	t.Parallel()
	for _, provider := range rerankProviders {
		for _, reverse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/reverse=%v", provider, reverse), func(t *testing.T) {
				t.Parallel()
				fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
				fake.Push(embedtest.Fault{Reverse: reverse}) // the answer's order must not matter
				r := newReranker(t, fake, provider, circuittest.NewClock(), nil)
				got, err := r.Rerank(context.Background(), "Can I get my money back?", rerankDocs, 2)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 || !(got[0].Index == 0 && got[1].Index == 3 || got[0].Index == 3 && got[1].Index == 0) {
					t.Fatalf("got %+v, want documents 0 and 3 first", got)
				}
				if got[0].Score < got[1].Score || got[1].Score <= 0 || got[0].Score > 1 {
					t.Errorf("scores %+v, want descending in (0, 1]", got)
				}
				all, err := r.Rerank(context.Background(), "Can I get my money back?", rerankDocs, 0)
				if err != nil || len(all) != len(rerankDocs) {
					t.Fatalf("all: %+v, %v", all, err)
				}
				if !slices.IsSortedFunc(all, func(a, b Scored) int { return cmpScore(b.Score, a.Score) }) {
					t.Errorf("not sorted: %+v", all)
				}
			})
		}
	}
}

func cmpScore(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestRerankSendsTheWireProtocol(t *testing.T) {
	t.Parallel()
	t.Run("tei", func(t *testing.T) {
		t.Parallel()
		fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
		r := newReranker(t, fake, RerankTEI, circuittest.NewClock(), nil)
		if _, err := r.Rerank(context.Background(), "refund", rerankDocs, 3); err != nil {
			t.Fatal(err)
		}
		c := fake.Calls()[0]
		if c.Protocol != embedtest.ProtocolTEI || c.Query != "refund" || !slices.Equal(c.Documents, rerankDocs) ||
			c.RawScores == nil || *c.RawScores || c.Header.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("call %+v", c)
		}
		if strings.Contains(string(c.Body), `"model"`) {
			t.Errorf("TEI was sent a model: %s", c.Body)
		}
	})
	t.Run("cohere", func(t *testing.T) {
		t.Parallel()
		fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
		r := newReranker(t, fake, RerankCohere, circuittest.NewClock(), nil)
		if _, err := r.Rerank(context.Background(), "refund", rerankDocs, 3); err != nil {
			t.Fatal(err)
		}
		c := fake.Calls()[0]
		if c.Protocol != embedtest.ProtocolCohere || c.Model != "fake-rerank" || c.Query != "refund" ||
			!slices.Equal(c.Documents, rerankDocs) || c.TopN != 3 || c.Header.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("call %+v", c)
		}
	})
}

func TestRerankBatchesAndMerges(t *testing.T) {
	t.Parallel()
	// 70 documents: the refund ones at 5 and 66, in different batches.
	docs := texts(70, "filler")
	docs[5], docs[66] = "How to get your money back", "Erstattung des Kaufpreises"
	eachProvider(t, rerankProviders, func(t *testing.T, provider string, fake *embedtest.Server) { // TEI's 32 a call
		r := newReranker(t, fake, provider, circuittest.NewClock(), nil)
		got, err := r.Rerank(context.Background(), "refund", docs, 2)
		if err != nil {
			t.Fatal(err)
		}
		idx := []int{got[0].Index, got[1].Index}
		slices.Sort(idx)
		if !slices.Equal(idx, []int{5, 66}) {
			t.Errorf("best %+v, want documents 5 and 66", got)
		}
		var sizes []int
		for _, c := range fake.Calls() {
			sizes = append(sizes, len(c.Documents))
		}
		if !slices.Equal(sizes, []int{32, 32, 6}) {
			t.Errorf("batches %v, want 32, 32, 6", sizes)
		}
	})
}

func TestRerankErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		provider    string
		faults      []embedtest.Fault
		query       string
		wantCalls   int
		wantStatus  int
		unavailable bool
		cause       error
	}{
		{"tei down", RerankTEI, []embedtest.Fault{{Status: 503}, {Status: 503}, {Status: 503}}, "refund", 3, 503, true, nil},
		{"cohere rate limited", RerankCohere, []embedtest.Fault{{Status: 429}, {Status: 429}, {Status: 429}}, "refund", 3, 429, true, nil},
		{"tei refuses", RerankTEI, []embedtest.Fault{{Status: 422}}, "refund", 1, 422, false, nil},
		{"cohere refuses", RerankCohere, []embedtest.Fault{{Status: 400}}, "refund", 1, 400, false, nil},
		{"tei index out of range", RerankTEI, []embedtest.Fault{{Body: `[{"index":9,"score":0.5}]`}}, "refund", 1, 0, false, ErrBadResponse},
		{"cohere index repeated", RerankCohere, []embedtest.Fault{{Body: `{"results":[{"index":1,"relevance_score":0.5},{"index":1,"relevance_score":0.4}]}`}}, "refund", 1, 0, false, ErrBadResponse},
		{"malformed", RerankTEI, []embedtest.Fault{{Body: `[{"index":`}}, "refund", 1, 0, false, nil},
		{"empty query", RerankCohere, nil, " ", 0, 0, false, ErrEmptyText},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := embedtest.Start(t, embedtest.Options{APIKey: testKey})
			fake.Push(tc.faults...)
			r := newReranker(t, fake, tc.provider, circuittest.NewClock(), nil)
			got, err := r.Rerank(context.Background(), tc.query, rerankDocs, 3)
			if got != nil {
				t.Errorf("got %v with the error", got)
			}
			expectFailure(t, err, fake, failure{tc.provider, tc.wantStatus, tc.unavailable, tc.cause, tc.wantCalls})
		})
	}
}

func TestRerankBreakerAndTimeout(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{})
	fake.SetDefault(embedtest.Fault{Delay: time.Minute})
	clk := circuittest.NewClock()
	r := newReranker(t, fake, RerankTEI, clk, func(cfg *RerankConfig) {
		cfg.Timeout, cfg.MaxRetries, cfg.BreakerFailures = 50*time.Millisecond, -1, 2
	})
	ctx := context.Background()
	for range 2 {
		if _, err := r.Rerank(ctx, "refund", rerankDocs, 3); !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err %v, want a timeout", err)
		}
	}
	start := time.Now()
	if _, err := r.Rerank(ctx, "refund", rerankDocs, 3); !errors.Is(err, ErrCircuitOpen) || time.Since(start) > time.Second {
		t.Fatalf("err %v after %v, want the open breaker at once", err, time.Since(start))
	}
	if n := fake.CallCount(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

func TestRerankNoDocumentsCallsNothing(t *testing.T) {
	t.Parallel()
	fake := embedtest.Start(t, embedtest.Options{})
	r := newReranker(t, fake, RerankCohere, circuittest.NewClock(), nil)
	if got, err := r.Rerank(context.Background(), "refund", nil, 5); got != nil || err != nil || fake.CallCount() != 0 {
		t.Errorf("%v, %v, %d calls", got, err, fake.CallCount())
	}
}

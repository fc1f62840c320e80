package notify

import (
	"log/slog"
	"sync"
	"testing"

	"svc/internal/store"
)

// failureCounter records OutboxFailed calls.
type failureCounter struct {
	mu             sync.Mutex
	retry, givenUp map[string]int
}

func (f *failureCounter) OutboxFailed(kind string, final bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if final {
		f.givenUp[kind]++
	} else {
		f.retry[kind]++
	}
}

// Every failed attempt is reported with its notice's kind, the last one as given up.
func TestWorkerReportsFailedAttempts(t *testing.T) {
	e := newEnv(t)
	a := e.owner("Counted", "owner@counted.example", "en")
	n := e.budgetReached(a, e.token(a, "x", 50_000, "counted.example"), 50_000)
	fc := &failureCounter{retry: map[string]int{}, givenUp: map[string]int{}}
	w := NewWorker(Deps{Store: e.store, Sender: &failingSender{}, Now: e.clock.Now, Metrics: fc,
		Log: slog.New(slog.DiscardHandler)})
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		flush(t, w, 0)
		e.clock.Advance(Backoff(attempt))
	}
	if got := e.notice(a.ID, n.ID); got.Status != store.NoticeFailed {
		t.Fatalf("notice %+v", got)
	}
	if fc.retry[store.NoticeBudgetReached] != MaxAttempts-1 || fc.givenUp[store.NoticeBudgetReached] != 1 {
		t.Fatalf("retries %v, given up %v", fc.retry, fc.givenUp)
	}
}

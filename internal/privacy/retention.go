package privacy

import (
	"context"
	"log/slog"
	"time"

	"svc/internal/store"
)

// SweepEvery is how often serve runs the retention sweep after the one at start-up. Retention
// is counted in days, so an hour late is well within it, and an hourly sweep deletes an
// hour's worth of conversations at a time instead of a day's.
const SweepEvery = time.Hour

// sweepBatch is how many conversations one transaction deletes: small enough that the single
// writer is free again within milliseconds for the sends waiting behind it.
const sweepBatch = 200

// Sweeper is what the retention sweep needs of the store.
type Sweeper interface {
	DeleteStaleVisitorConversations(ctx context.Context, before time.Time, limit int) (store.VisitorDeletion, error)
}

// Retention deletes widget visitors' conversations once nothing has happened in them for a
// number of days: no message and no visit of their visitor (a visitor who comes back to read
// their conversation is using it, and deleting it under them would also fail their next
// send). The API's rolling conversation is never swept: it is the account's own (DECISIONS:
// it belongs to the key owner, not a visitor), it is what the API's context and summary are
// built from, and it goes with `svc account delete`.
//
// Only text goes. Usage events and ledger rows stay, so balances, the ledger, invoices and
// the dashboard's daily totals and money figures of past days do not change; the overview's
// reply counts come from the daily totals too and keep counting the deleted replies.
type Retention struct {
	st   Sweeper
	days int
	now  func() time.Time
	log  *slog.Logger
}

// NewRetention makes the sweep of conversations idle for days days (1 or more); now and log
// may be nil.
func NewRetention(st Sweeper, days int, now func() time.Time, log *slog.Logger) *Retention {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Retention{st: st, days: days, now: now, log: log}
}

// Cutoff is the oldest activity a conversation may have at now and be kept.
func (r *Retention) Cutoff(now time.Time) time.Time {
	return now.UTC().Add(-time.Duration(r.days) * 24 * time.Hour)
}

// Sweep deletes every conversation idle since the cutoff, a batch per transaction, and
// reports what it deleted; it stops early, with what it did, when ctx ends or the store fails.
func (r *Retention) Sweep(ctx context.Context) (store.VisitorDeletion, error) {
	cutoff := r.Cutoff(r.now())
	var total store.VisitorDeletion
	for ctx.Err() == nil {
		d, err := r.st.DeleteStaleVisitorConversations(ctx, cutoff, sweepBatch)
		total.Add(d)
		if err != nil {
			return total, err
		}
		if d.Conversations < sweepBatch {
			break
		}
	}
	return total, ctx.Err()
}

// Run sweeps at once, then every interval, until ctx ends. A failed sweep is logged and
// tried again at the next tick.
func (r *Retention) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		d, err := r.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			r.log.Error("retention sweep", slog.Any("err", err), slog.Int("conversations", d.Conversations))
		case d.Conversations > 0:
			r.log.Info("retention sweep deleted idle visitor conversations", slog.Int("days", r.days),
				slog.Int("conversations", d.Conversations), slog.Int("messages", d.Messages),
				slog.Int("feedback", d.Feedback), slog.Int("review_items", d.ReviewItems),
				slog.Int("cache_entries", d.CacheEntries))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

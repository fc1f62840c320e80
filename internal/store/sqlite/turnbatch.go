package sqlite

import (
	"context"
	"fmt"
	"sync"

	"svc/internal/store"
)

// maxTurnBatch bounds how many turns one transaction commits.
const maxTurnBatch = 64

// turnBatcher is group commit for SaveTurn. Every send ends in one write transaction, and on
// the cheap paths (small talk, a cached answer) that transaction was most of the request's
// time: its commit writes the WAL and, now and then, checkpoints with an fsync, while every
// other send waits for the one writer connection. Turns that arrive while a transaction is
// running are queued, and the next transaction writes them all, each inside a savepoint of
// its own, so a turn that fails (a quota reached, a balance spent, a cancelled request) is
// rolled back alone and the others commit. Every caller returns only after the transaction
// holding its turn has committed, so nothing is acknowledged that is not durable, and an
// answer and its charge still commit together.
//
// There is no goroutine of its own: the first caller to find no transaction running leads,
// commits one batch, and hands the lead to the oldest turn still waiting, so no caller waits
// for more than the batches ahead of it.
type turnBatcher struct {
	mu      sync.Mutex
	pending []*turnReq
	leading bool
}

// turnReq is one SaveTurn waiting for its transaction.
type turnReq struct {
	ctx     context.Context
	t       *store.Turn
	charges []store.Charge
	lead    chan struct{} // told to commit the next batch
	done    chan error    // the outcome of its transaction

	capped int64
	notice bool
}

// save queues t and returns once the transaction holding it has committed or failed.
func (b *turnBatcher) save(ctx context.Context, s *Store, t *store.Turn, charges []store.Charge) error {
	r := &turnReq{ctx: ctx, t: t, charges: charges, lead: make(chan struct{}, 1), done: make(chan error, 1)}
	b.mu.Lock()
	b.pending = append(b.pending, r)
	if !b.leading {
		b.leading = true
		r.lead <- struct{}{}
	}
	b.mu.Unlock()
	// The caller waits even when its context ends meanwhile: once queued, its turn may
	// commit, and the caller must learn whether it did.
	for {
		select {
		case err := <-r.done:
			if err != nil {
				return err
			}
			t.Charge = r.charges[0]
			copy(t.Extra, r.charges[1:])
			t.Capped = r.capped
			t.NoticeQueued = r.notice
			return nil
		case <-r.lead:
			b.commitNext(s)
		}
	}
}

// commitNext commits the oldest queued turns in one transaction, then passes the lead on.
func (b *turnBatcher) commitNext(s *Store) {
	b.mu.Lock()
	n := min(len(b.pending), maxTurnBatch)
	batch := make([]*turnReq, n)
	copy(batch, b.pending)
	b.pending = append(b.pending[:0], b.pending[n:]...)
	b.mu.Unlock()

	errs := s.writeTurns(batch)
	for i, r := range batch {
		r.done <- errs[i]
	}

	b.mu.Lock()
	if len(b.pending) > 0 {
		b.pending[0].lead <- struct{}{}
	} else {
		b.leading = false
	}
	b.mu.Unlock()
}

// writeTurns writes the batch in one transaction, each turn in a savepoint, and returns each
// turn's outcome. The transaction is not bound to any caller's context, so that one caller
// leaving does not roll back the others; each turn's statements run under its own context.
func (s *Store) writeTurns(batch []*turnReq) []error {
	errs := make([]error, len(batch))
	fail := func(err error) []error {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return errs
	}
	tx, err := s.w.begin(context.Background(), nil)
	if err != nil {
		return fail(fmt.Errorf("begin: %w", err))
	}
	now := s.now().UTC()
	committed := false
	defer func() {
		if !committed {
			_ = tx.Rollback()
		}
	}()
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if _, err := tx.ExecContext(context.Background(), `SAVEPOINT turn`); err != nil {
			return fail(fmt.Errorf("savepoint: %w", err))
		}
		capped, notice, err := writeTurn(r.ctx, tx, r.t, r.charges, now)
		if err != nil {
			errs[i] = err
			if r.ctx.Err() != nil {
				errs[i] = fmt.Errorf("%w (%w)", r.ctx.Err(), err)
			}
			if _, err := tx.ExecContext(context.Background(), `ROLLBACK TO turn`); err != nil {
				return fail(fmt.Errorf("roll back turn: %w", err))
			}
		}
		if _, err := tx.ExecContext(context.Background(), `RELEASE turn`); err != nil {
			return fail(fmt.Errorf("release savepoint: %w", err))
		}
		r.capped, r.notice = capped, notice
	}
	if err := tx.Commit(); err != nil {
		return fail(fmt.Errorf("commit: %w", err))
	}
	committed = true
	return errs
}

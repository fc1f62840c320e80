package sqlite

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// maxTurnBatch bounds how many turns one transaction commits.
const maxTurnBatch = 64

// turnBatcher is group commit for SaveTurn. Every send ends in one write transaction, and on
// the cheap paths (small talk, a cached answer) that transaction was most of the request's
// time, while every other send waited for the one writer connection. Turns are handed to
// one goroutine that writes whatever has queued while its last transaction ran in the next
// one, each turn inside a savepoint of its own, so a turn that fails (a quota reached, a
// balance spent, a cancelled request) is rolled back alone and the others commit. Every
// caller returns only after the transaction holding its turn has committed, so nothing is
// acknowledged that is not durable, and an answer and its charge still commit together.
//
// A goroutine of its own, rather than callers taking turns to lead: handing the lead from
// one request's goroutine to the next left the writer idle while the next one waited to be
// scheduled behind the HTTP handlers.
type turnBatcher struct {
	reqs    chan *turnReq
	stop    chan struct{}
	stopped chan struct{}
}

// turnReq is one SaveTurn waiting for its transaction.
type turnReq struct {
	ctx     context.Context
	t       *store.Turn
	charges []store.Charge
	done    chan error // the outcome of its transaction

	capped int64
	notice bool
}

// errStoreClosed answers a turn saved after Close.
var errStoreClosed = errors.New("save turn: the store is closed")

func newTurnBatcher() *turnBatcher {
	return &turnBatcher{reqs: make(chan *turnReq), stop: make(chan struct{}), stopped: make(chan struct{})}
}

// save queues t and returns once the transaction holding it has committed or failed.
func (b *turnBatcher) save(ctx context.Context, t *store.Turn, charges []store.Charge) error {
	r := &turnReq{ctx: ctx, t: t, charges: charges, done: make(chan error, 1)}
	select {
	case b.reqs <- r:
	case <-b.stop:
		return errStoreClosed
	}
	// The caller waits even when its context ends meanwhile: once queued, its turn may
	// commit, and the caller must learn whether it did.
	if err := <-r.done; err != nil {
		return err
	}
	t.Charge = r.charges[0]
	copy(t.Extra, r.charges[1:])
	t.Capped = r.capped
	t.NoticeQueued = r.notice
	return nil
}

// run writes queued turns until close is called.
func (b *turnBatcher) run(s *Store) {
	defer close(b.stopped)
	batches := 0
	for {
		var r *turnReq
		select {
		case r = <-b.reqs:
		case <-b.stop:
			return
		}
		batch := []*turnReq{r}
		yielded := false
	more:
		for len(batch) < maxTurnBatch {
			select {
			case r := <-b.reqs:
				batch = append(batch, r)
			default:
				if yielded {
					break more
				}
				// Once the queue is empty, the handlers that are about to queue their turns
				// get to run before the batch is written. Under load that made most batches
				// one turn long, each paying a commit of its own; one yield moves them to
				// several turns (under wrk -c32: a cache hit 196 -> 169-185 µs of server
				// CPU). With nothing else to run it returns at once, so a lone turn waits for
				// nothing.
				yielded = true
				runtime.Gosched()
			}
		}
		for i, err := range b.write(s, batch) {
			batch[i].done <- err
		}
		if batches++; batches%checkpointEvery == 0 {
			s.ckpt.request()
		}
	}
}

// write writes one batch. A panic while writing it (a bug) fails the batch's turns, whose
// transaction its deferred rollback has undone, instead of ending the process: it runs on
// the writer's goroutine, where no HTTP server recovers it.
func (b *turnBatcher) write(s *Store, batch []*turnReq) (errs []error) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("save turn: %v", p)
			errs = make([]error, len(batch))
			for i := range errs {
				errs[i] = err
			}
		}
	}()
	return s.writeTurns(batch)
}

// close stops the writer after the batch it is writing.
func (b *turnBatcher) close() {
	close(b.stop)
	<-b.stopped
}

// writeTurns writes the batch in one transaction and returns each turn's outcome. A turn
// that may fail by a rule (a charge, a quota, a reservation or a budget: see mayRefuse) is
// written inside a savepoint of its own, so that it can be rolled back alone. A free turn
// (small talk, a cached answer) cannot be refused, and a savepoint would cost it two
// statements and a copy of every page it touches; should one fail all the same (a bug, a
// conversation erased meanwhile), the whole transaction is rolled back and the batch
// written again with every turn in a savepoint, so that only the failing turn fails.
func (s *Store) writeTurns(batch []*turnReq) []error {
	errs, retry := s.writeBatch(batch, false)
	if retry {
		errs, _ = s.writeBatch(batch, true)
	}
	return errs
}

// writeBatch is one attempt of writeTurns; with safe every turn gets a savepoint. It reports
// retry when a turn without a savepoint failed, after rolling the transaction back. The
// transaction is not bound to any caller's context, so that one caller leaving does not
// roll back the others; a turn whose caller has left before it began is not written. Each
// turn settles a copy of its charges, kept only once the transaction has committed, so an
// attempt rolled back leaves them as they were.
func (s *Store) writeBatch(batch []*turnReq, safe bool) (errs []error, retry bool) {
	errs = make([]error, len(batch))
	fail := func(err error) ([]error, bool) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return errs, false
	}
	tx, err := s.w.Begin(context.Background(), nil)
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
	settled := make([][]store.Charge, len(batch))
	type outcome struct {
		capped int64
		notice bool
	}
	outcomes := make([]outcome, len(batch))
	var tally sqlstore.Tally
	// Free turns first, all together (WriteFreeTurns); on the safe attempt each gets its
	// own savepoint instead.
	written := make([]bool, len(batch))
	if !safe {
		var free []sqlstore.FreeTurn
		for i, r := range batch {
			if r.ctx.Err() == nil && !sqlstore.MayRefuse(r.t, r.charges) {
				settled[i] = slices.Clone(r.charges)
				free = append(free, sqlstore.FreeTurn{T: r.t, Charges: settled[i]})
				written[i] = true
			}
		}
		if len(free) > 0 {
			tx.ForgetQueried()
			tx.Tally = &sqlstore.Tally{}
			if err := s.WriteFreeTurns(context.Background(), tx, free, now); err != nil {
				return nil, true // the deferred rollback undoes the attempt
			}
			tally.Merge(tx.Tally)
		}
	}
	for i, r := range batch {
		if written[i] {
			continue
		}
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		// The previous turn's statements have all finished and closed their rows, so every
		// text may use its cached statement again.
		tx.ForgetQueried()
		tx.Tally = &sqlstore.Tally{}
		savepoint := safe || sqlstore.MayRefuse(r.t, r.charges)
		if savepoint {
			if _, err := tx.ExecContext(context.Background(), `SAVEPOINT turn`); err != nil {
				return fail(fmt.Errorf("savepoint: %w", err))
			}
		}
		settled[i] = slices.Clone(r.charges)
		// The statements run without the caller's cancellation: a context that can end makes
		// the driver watch it from a goroutine of its own for every statement, and a request
		// that ends after its turn began is no reason to undo the turn (its commit is near).
		capped, notice, err := s.WriteTurn(context.WithoutCancel(r.ctx), tx, r.t, settled[i], now)
		if err != nil && !savepoint {
			return nil, true // the deferred rollback undoes the attempt
		}
		if savepoint {
			if err != nil {
				errs[i] = err
				if _, err := tx.ExecContext(context.Background(), `ROLLBACK TO turn`); err != nil {
					return fail(fmt.Errorf("roll back turn: %w", err))
				}
			}
			if _, err := tx.ExecContext(context.Background(), `RELEASE turn`); err != nil {
				return fail(fmt.Errorf("release savepoint: %w", err))
			}
		}
		if errs[i] == nil {
			tally.Merge(tx.Tally)
		}
		outcomes[i] = outcome{capped, notice}
	}
	tx.Tally = nil
	if err := tally.Write(context.Background(), tx); err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(fmt.Errorf("commit: %w", err))
	}
	committed = true
	for i, r := range batch {
		if errs[i] == nil {
			r.charges = settled[i]
			r.capped, r.notice = outcomes[i].capped, outcomes[i].notice
		}
	}
	return errs, false
}

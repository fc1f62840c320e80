package postgres

import (
	"context"
	"slices"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// SaveTurn commits a turn (see sqlstore.Store.WriteTurn for what it writes and the rules it
// keeps), each turn in its own transaction: there is no group commit, PostgreSQL takes writers
// in parallel.
func (s *Store) SaveTurn(ctx context.Context, t *store.Turn) error {
	charges, err := sqlstore.TurnCharges(t)
	if err != nil {
		return err
	}
	// The account's row lock comes first, so the quota recount, the reservation's release,
	// the capped charge and the budget's notice read what no other transaction of the
	// account can change before this one commits. Charges are settled in a copy kept only
	// once committed, so a failed turn can be retried as it was.
	var settled []store.Charge
	var capped int64
	var notice bool
	for attempt := 1; ; attempt++ {
		err = s.InTx(ctx, func(tx *dbtx) error {
			settled = slices.Clone(charges)
			if err := lockAccount(ctx, tx, t.AccountID); err != nil {
				return err
			}
			var err error
			capped, notice, err = s.WriteTurn(ctx, tx, t, settled, s.now().UTC())
			return err
		})
		// A turn's row locks (a cached entry's hits, an article's views) can meet an import's
		// in the other order; PostgreSQL then aborts one of them, and the turn, rolled back
		// whole, is written again.
		if !isDeadlock(err) || attempt == turnAttempts {
			break
		}
	}
	if err != nil {
		return err
	}
	t.Charge = settled[0]
	copy(t.Extra, settled[1:])
	t.Capped, t.NoticeQueued = capped, notice
	return nil
}

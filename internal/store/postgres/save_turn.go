package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"

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
	// Each turn is its own transaction (no group commit: PostgreSQL takes writers in parallel).
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

// lockAccountsWithReleasable locks, in id order, the accounts that have a reservation that
// expired by expiredBy or was created before createdBefore, and returns their ids.
func lockAccountsWithReleasable(ctx context.Context, tx *dbtx, expiredBy, createdBefore time.Time) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM accounts WHERE id IN (SELECT account_id FROM reservations
		WHERE expires_at <= ? OR created_at < ?) ORDER BY id FOR UPDATE`, ts(expiredBy), ts(createdBefore))
	if err != nil {
		return nil, fmt.Errorf("release reservations: lock accounts: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("release reservations: lock accounts: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("release reservations: lock accounts: %w", err)
	}
	return ids, nil
}

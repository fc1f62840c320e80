package sqlite

import (
	"context"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// SaveTurn commits a turn (see sqlstore.Store.WriteTurn for what it writes and the rules it
// keeps) through the group commit of turnbatch.go: turns that arrive together share one
// IMMEDIATE transaction of the single writer, each in its own savepoint when it may fail.
func (s *Store) SaveTurn(ctx context.Context, t *store.Turn) error {
	charges, err := sqlstore.TurnCharges(t)
	if err != nil {
		return err
	}
	return s.turns.save(ctx, t, charges)
}

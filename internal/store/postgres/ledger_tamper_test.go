package postgres

import (
	"context"
	"fmt"

	"svc/internal/store"
)

// The storetest.Tamperer methods: they exist only in test builds, so the conformance suite
// can break the data the way a bug or a hand edit would and check that CheckLedger notices.

func (s *Store) TamperBalance(ctx context.Context, accountID, delta int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE accounts SET balance_micro = balance_micro + ? WHERE id = ?`, delta, accountID)
	return err
}

func (s *Store) TamperReserved(ctx context.Context, accountID, delta int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE accounts SET reserved_micro = reserved_micro + ? WHERE id = ?`, delta, accountID)
	return err
}

func (s *Store) TamperDropCharge(ctx context.Context, accountID, eventID int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM ledger WHERE id = (SELECT l.id FROM ledger l JOIN usage_events e
		ON e.id = ? AND e.account_id = l.account_id AND COALESCE(e.message_id, 0) = COALESCE(l.message_id, 0)
		AND l.note = e.event_type AND l.amount_micro = -e.cost_micro
		WHERE l.account_id = ? AND l.kind = ? ORDER BY l.id DESC LIMIT 1)`, eventID, accountID, store.LedgerCharge)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("tamper: event %d of account %d has no ledger row", eventID, accountID)
	}
	return nil
}

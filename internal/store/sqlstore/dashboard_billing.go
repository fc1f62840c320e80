package sqlstore

import (
	"context"
	"fmt"
	"math"

	"svc/internal/store"
)

// LedgerPage reads a page of the account's ledger newest first, keyed by id, and how many
// entries it has; both in one read transaction so the total matches the page.
func (s *Store) LedgerPage(ctx context.Context, accountID, beforeID int64, limit int) ([]store.LedgerEntry, int, error) {
	if limit <= 0 {
		limit = 50
	}
	if beforeID <= 0 {
		beforeID = math.MaxInt64
	}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("ledger page: %w", err)
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM ledger WHERE account_id = ?`, accountID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("ledger page: %w", err)
	}
	rows, err := tx.QueryContext(ctx, LedgerPageQuery, accountID, beforeID, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("ledger page: %w", err)
	}
	defer rows.Close()
	out := []store.LedgerEntry{}
	for rows.Next() {
		e, err := ScanLedgerEntry(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("ledger page: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("ledger page: %w", err)
	}
	return out, total, nil
}

const LedgerPageQuery = `SELECT ` + LedgerColumns + ` FROM ledger WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`

// ActiveKey reads the account's newest active key. RotateKey leaves one, but the newest wins
// should a race or a hand edit have left more.
func (s *Store) ActiveKey(ctx context.Context, accountID int64) (store.APIKey, error) {
	k, err := scanKey(s.r.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE account_id = ? AND status = ?
		ORDER BY id DESC LIMIT 1`, accountID, store.KeyActive))
	if err != nil {
		return k, NotFound(err, "active key")
	}
	return k, nil
}

package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// InsertNotice queues n inside tx, due at now, unless a notice with its dedupe key exists. It
// is shared by EnqueueNotice and by SaveTurn, which queues the budget notice in the
// transaction of the charge that reached the budget, so the notice exists exactly when the
// charge does.
func InsertNotice(ctx context.Context, tx *Tx, n *store.Notice, now time.Time) (bool, error) {
	if n.Kind == "" || n.DedupeKey == "" || n.AccountID == 0 {
		return false, fmt.Errorf("queue notice: kind, dedupe key and account are required")
	}
	if n.Payload == "" {
		n.Payload = "{}"
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO notices (account_id, kind, dedupe_key, payload, status, attempts,
		next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
		n.AccountID, n.Kind, n.DedupeKey, n.Payload, store.NoticePending, TS(now), TS(now))
	if err != nil {
		return false, fmt.Errorf("queue notice: %w", err)
	}
	if k, err := res.RowsAffected(); err != nil || k == 0 {
		return false, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT id FROM notices WHERE dedupe_key = ?`, n.DedupeKey).Scan(&n.ID); err != nil {
		return false, fmt.Errorf("queue notice: %w", err)
	}
	n.Status, n.Attempts, n.NextAttemptAt, n.CreatedAt = store.NoticePending, 0, now, now
	return true, nil
}

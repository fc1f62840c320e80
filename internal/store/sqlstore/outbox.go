package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"svc/internal/store"
)

const noticeColumns = `id, account_id, kind, dedupe_key, payload, status, attempts, next_attempt_at, last_error,
	created_at, sent_at`

func scanNotice(row interface{ Scan(...any) error }) (store.Notice, error) {
	var n store.Notice
	var next, created, sent string
	err := row.Scan(&n.ID, &n.AccountID, &n.Kind, &n.DedupeKey, &n.Payload, &n.Status, &n.Attempts, &next,
		&n.LastError, &created, &sent)
	n.NextAttemptAt, n.CreatedAt, n.SentAt = ParseTS(next), ParseTS(created), ParseTS(sent)
	return n, err
}

// EnqueueNotice queues n, due at once, unless a notice with its dedupe key exists.
func (s *Store) EnqueueNotice(ctx context.Context, n *store.Notice) (bool, error) {
	now := s.now().UTC()
	var queued bool
	err := s.InTx(ctx, func(tx *Tx) error {
		var err error
		queued, err = InsertNotice(ctx, tx, n, now)
		return err
	})
	if err != nil {
		return false, err
	}
	return queued, nil
}

// claimNoticesQuery selects the due notices; the dialect's SkipLocked clause follows it.
const claimNoticesQuery = `SELECT ` + noticeColumns + ` FROM notices
	WHERE status = ? AND next_attempt_at <= ? ORDER BY created_at, id LIMIT ?`

// ClaimNotices leases up to limit due pending notices, oldest first: their next attempt moves
// to now+lease in the same write transaction, so a concurrent claim (another worker, another
// process on the same file) does not see them until the lease runs out.
func (s *Store) ClaimNotices(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.Notice, error) {
	if limit <= 0 {
		return []store.Notice{}, nil
	}
	if lease <= 0 {
		return nil, fmt.Errorf("claim notices: the lease must be positive, not %s", lease)
	}
	until := now.Add(lease).UTC().Truncate(time.Microsecond) // as stored
	out := []store.Notice{}
	err := s.InTx(ctx, func(tx *Tx) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, s.claimNotices, store.NoticePending, TS(now), limit)
		if err != nil {
			return fmt.Errorf("claim notices: %w", err)
		}
		for rows.Next() {
			n, err := scanNotice(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("claim notices: %w", err)
			}
			out = append(out, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("claim notices: %w", err)
		}
		for i := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE notices SET next_attempt_at = ? WHERE id = ?`,
				TS(until), out[i].ID); err != nil {
				return fmt.Errorf("claim notice %d: %w", out[i].ID, err)
			}
			out[i].NextAttemptAt = until
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// NoticeSent marks a notice sent at at. Marking a sent notice again keeps its first time.
func (s *Store) NoticeSent(ctx context.Context, noticeID int64, at time.Time, clearPayload bool) error {
	return s.InTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE notices SET status = ?,
			sent_at = CASE WHEN status = ? THEN sent_at ELSE ? END,
			payload = CASE WHEN ? THEN '{}' ELSE payload END WHERE id = ?`,
			store.NoticeSent, store.NoticeSent, TS(at), clearPayload, noticeID)
		if err != nil {
			return fmt.Errorf("notice sent: %w", err)
		}
		if k, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("notice sent: %w", err)
		} else if k == 0 {
			return fmt.Errorf("notice %d: %w", noticeID, store.ErrNotFound)
		}
		return nil
	})
}

// NoticeFailed records a failed attempt of a pending notice. A notice that is no longer
// pending (sent meanwhile by a worker whose lease outlived another's) keeps its status.
func (s *Store) NoticeFailed(ctx context.Context, noticeID int64, errText string, next time.Time, final bool) error {
	status := store.NoticePending
	if final {
		status = store.NoticeFailed
	}
	return s.InTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE notices SET attempts = attempts + 1, last_error = ?,
			next_attempt_at = ?, status = ? WHERE id = ? AND status = ?`,
			errText, TS(next), status, noticeID, store.NoticePending)
		if err != nil {
			return fmt.Errorf("notice failed: %w", err)
		}
		if k, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("notice failed: %w", err)
		} else if k > 0 {
			return nil
		}
		var id int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM notices WHERE id = ?`, noticeID).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("notice %d: %w", noticeID, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("notice failed: %w", err)
		}
		return nil
	})
}

// Notices lists the account's notices, newest first.
func (s *Store) Notices(ctx context.Context, accountID int64) ([]store.Notice, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+noticeColumns+` FROM notices WHERE account_id = ?
		ORDER BY id DESC`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list notices: %w", err)
	}
	defer rows.Close()
	out := []store.Notice{}
	for rows.Next() {
		n, err := scanNotice(rows)
		if err != nil {
			return nil, fmt.Errorf("list notices: %w", err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list notices: %w", err)
	}
	return out, nil
}

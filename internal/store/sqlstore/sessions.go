package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// Dashboard sessions: only the SHA-256 of the browser's random id is stored. Expiry rules
// live in the users package; the store answers with whatever it has.

const sessionColumns = `id, hash, user_id, account_id, user_agent, created_at, last_seen_at, expires_at`

func scanSession(row interface{ Scan(...any) error }) (store.Session, error) {
	var x store.Session
	var created, seen, expires string
	err := row.Scan(&x.ID, &x.Hash, &x.UserID, &x.AccountID, &x.UserAgent, &created, &seen, &expires)
	x.CreatedAt, x.LastSeenAt, x.ExpiresAt = ParseTS(created), ParseTS(seen), ParseTS(expires)
	return x, err
}

// CreateSession inserts x for one of the account's users (ErrNotFound otherwise, so a
// session can never name a user of another account). A zero CreatedAt is now and a zero
// LastSeenAt is CreatedAt.
func (s *Store) CreateSession(ctx context.Context, x *store.Session) error {
	if len(x.Hash) == 0 {
		return fmt.Errorf("create session: the hash is required")
	}
	if x.CreatedAt.IsZero() {
		x.CreatedAt = s.now()
	}
	if x.LastSeenAt.IsZero() {
		x.LastSeenAt = x.CreatedAt
	}
	return s.InTx(ctx, func(tx *Tx) error {
		if err := checkUserTx(ctx, tx, x.AccountID, x.UserID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO sessions (hash, user_id, account_id, user_agent, created_at,
			last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			x.Hash, x.UserID, x.AccountID, x.UserAgent, TS(x.CreatedAt), TS(x.LastSeenAt), TS(x.ExpiresAt)).Scan(&x.ID); err != nil {
			return fmt.Errorf("insert session: %w", err)
		}
		// As stored, so that the caller's copy equals what SessionByHash returns.
		x.CreatedAt, x.LastSeenAt, x.ExpiresAt = ParseTS(TS(x.CreatedAt)), ParseTS(TS(x.LastSeenAt)), ParseTS(TS(x.ExpiresAt))
		return nil
	})
}

// SessionByHash reads a session, expired or not.
func (s *Store) SessionByHash(ctx context.Context, hash []byte) (store.Session, error) {
	x, err := scanSession(s.r.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE hash = ?`, hash))
	if err != nil {
		return store.Session{}, NotFound(err, "session by hash")
	}
	return x, nil
}

// TouchSession moves the session's last-seen time forward (never back, so a slow request
// that finishes late cannot shorten an idle window another request extended).
func (s *Store) TouchSession(ctx context.Context, sessionID int64, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?`,
		TS(at), sessionID, TS(at)); err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

// DeleteSession ends one session.
func (s *Store) DeleteSession(ctx context.Context, sessionID int64) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, sessionID); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// DeleteUserSessions ends every session of one of the account's users.
func (s *Store) DeleteUserSessions(ctx context.Context, accountID, userID int64) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND account_id = ?`,
		userID, accountID); err != nil {
		return fmt.Errorf("delete sessions of user %d: %w", userID, err)
	}
	return nil
}

// DeleteStaleSessions deletes idle and expired sessions and expired links in one transaction.
func (s *Store) DeleteStaleSessions(ctx context.Context, idleBefore, now time.Time) (int, error) {
	var n int64
	err := s.InTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE last_seen_at < ? OR expires_at < ?`,
			TS(idleBefore), TS(now))
		if err != nil {
			return fmt.Errorf("delete stale sessions: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("delete stale sessions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM auth_tokens WHERE expires_at < ?`, TS(now)); err != nil {
			return fmt.Errorf("delete expired links: %w", err)
		}
		return nil
	})
	return int(n), err
}

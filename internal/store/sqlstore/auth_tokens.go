package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// One-time links (invite, reset): only the SHA-256 of the secret is stored.

const authTokenColumns = `id, hash, user_id, account_id, kind, created_at, expires_at, used_at`

func scanAuthToken(row interface{ Scan(...any) error }) (store.AuthToken, error) {
	var t store.AuthToken
	var created, expires, used string
	err := row.Scan(&t.ID, &t.Hash, &t.UserID, &t.AccountID, &t.Kind, &created, &expires, &used)
	t.CreatedAt, t.ExpiresAt, t.UsedAt = ParseTS(created), ParseTS(expires), ParseTS(used)
	return t, err
}

// CreateAuthToken inserts t, unused, for one of the account's users (ErrNotFound otherwise).
func (s *Store) CreateAuthToken(ctx context.Context, t *store.AuthToken) error {
	if len(t.Hash) == 0 {
		return fmt.Errorf("create link: the hash is required")
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := checkUserTx(ctx, tx, t.AccountID, t.UserID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO auth_tokens (hash, user_id, account_id, kind, created_at,
			expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			t.Hash, t.UserID, t.AccountID, t.Kind, TS(now), TS(t.ExpiresAt)).Scan(&t.ID); err != nil {
			return fmt.Errorf("insert link: %w", err)
		}
		t.CreatedAt, t.ExpiresAt, t.UsedAt = ParseTS(TS(now)), ParseTS(TS(t.ExpiresAt)), time.Time{} // as stored
		return nil
	})
}

// AuthTokenByHash reads a link, used or not.
func (s *Store) AuthTokenByHash(ctx context.Context, hash []byte) (store.AuthToken, error) {
	t, err := scanAuthToken(s.r.QueryRowContext(ctx, `SELECT `+authTokenColumns+` FROM auth_tokens WHERE hash = ?`, hash))
	if err != nil {
		return store.AuthToken{}, NotFound(err, "link by hash")
	}
	return t, nil
}

// RedeemAuthToken uses a link once and sets the password. The link is claimed by a
// conditional UPDATE (unused and unexpired) whose row count decides the winner, so of
// concurrent redemptions exactly one succeeds here and on an engine with real concurrent
// writers alike (PostgreSQL); SQLite's single IMMEDIATE writer serialises them besides.
func (s *Store) RedeemAuthToken(ctx context.Context, hash []byte, now time.Time, passwordHash string) (store.User, error) {
	var u store.User
	err := s.InTx(ctx, func(tx *Tx) error {
		t, err := scanAuthToken(tx.QueryRowContext(ctx, `SELECT `+authTokenColumns+` FROM auth_tokens WHERE hash = ?`, hash))
		if err != nil {
			return NotFound(err, "redeem link")
		}
		res, err := tx.ExecContext(ctx, `UPDATE auth_tokens SET used_at = ? WHERE id = ? AND used_at = '' AND expires_at > ?`,
			TS(now), t.ID, TS(now))
		if err := OneRow(res, err, "redeem link"); err != nil {
			return err // used, or expired
		}
		if err := setPasswordTx(ctx, tx, t.AccountID, t.UserID, passwordHash, now, 0); err != nil {
			return err
		}
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ? AND account_id = ?`,
			t.UserID, t.AccountID))
		if err != nil {
			return NotFound(err, "redeem link: read user")
		}
		return nil
	})
	if err != nil {
		return store.User{}, err
	}
	return u, nil
}

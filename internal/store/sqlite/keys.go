package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"svc/internal/store"
)

func insertKey(ctx context.Context, tx *dbtx, key *store.APIKey, now time.Time) error {
	key.Status = store.KeyActive
	key.CreatedAt = now
	err := tx.QueryRowContext(ctx, `INSERT INTO api_keys (account_id, prefix, hash, status, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, key.AccountID, key.Prefix, key.Hash, key.Status, ts(now)).Scan(&key.ID)
	if err != nil {
		return fmt.Errorf("insert key: %w", err)
	}
	return nil
}

func scanKey(row interface{ Scan(...any) error }) (store.APIKey, error) {
	var k store.APIKey
	var created string
	var used sql.NullString
	err := row.Scan(&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &k.Status, &created, &used)
	k.CreatedAt, k.LastUsedAt = parseTS(created), nullTS(used)
	return k, err
}

const keyColumns = `id, account_id, prefix, hash, status, created_at, last_used_at`

// ActiveKeysByPrefix returns candidate keys; the caller compares hashes in constant time.
func (s *Store) ActiveKeysByPrefix(ctx context.Context, prefix string) ([]store.APIKey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE prefix = ? AND status = ?`,
		prefix, store.KeyActive)
	if err != nil {
		return nil, fmt.Errorf("keys by prefix: %w", err)
	}
	defer rows.Close()
	var out []store.APIKey
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("keys by prefix: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// RotateKey revokes the account's active keys and inserts the new one atomically, so there is
// no instant at which both the old and the new key work.
func (s *Store) RotateKey(ctx context.Context, accountID int64, key *store.APIKey) error {
	now := s.now().UTC()
	return s.inTx(ctx, func(tx *dbtx) error {
		if _, err := getAccountTx(ctx, tx, accountID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET status = ?, revoked_at = ? WHERE account_id = ? AND status = ?`,
			store.KeyRevoked, ts(now), accountID, store.KeyActive); err != nil {
			return fmt.Errorf("revoke keys: %w", err)
		}
		key.AccountID = accountID
		return insertKey(ctx, tx, key, now)
	})
}

// GetKey reads one key of the account.
func (s *Store) GetKey(ctx context.Context, accountID, keyID int64) (store.APIKey, error) {
	k, err := scanKey(s.r.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id = ? AND account_id = ?`,
		keyID, accountID))
	if err != nil {
		return k, notFound(err, "get key")
	}
	return k, nil
}

// TouchKey records use at most once a minute per key, so that every request does not become
// a write.
func (s *Store) TouchKey(ctx context.Context, keyID int64, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?
		AND (last_used_at IS NULL OR last_used_at < ?)`, ts(at), keyID, ts(at.Add(-time.Minute)))
	if err != nil {
		return fmt.Errorf("touch key: %w", err)
	}
	return nil
}

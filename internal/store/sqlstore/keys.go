package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"svc/internal/store"
)

func insertKey(ctx context.Context, tx *Tx, key *store.APIKey, now time.Time) error {
	key.Status = store.KeyActive
	key.CreatedAt = now
	err := tx.QueryRowContext(ctx, `INSERT INTO api_keys (account_id, prefix, hash, status, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, key.AccountID, key.Prefix, key.Hash, key.Status, TS(now)).Scan(&key.ID)
	if err != nil {
		return fmt.Errorf("insert key: %w", err)
	}
	return nil
}

func scanKey(row interface{ Scan(...any) error }) (store.APIKey, error) {
	var k store.APIKey
	dest, finish := keyFields(&k)
	err := row.Scan(dest...)
	finish()
	return k, err
}

// keyFields are the scan destinations of keyColumns for k, and what turns them into k's
// fields once scanned.
func keyFields(k *store.APIKey) (dest []any, finish func()) {
	var created string
	var used sql.NullString
	return []any{&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &k.Status, &created, &used}, func() {
		k.CreatedAt, k.LastUsedAt = ParseTS(created), NullTS(used)
	}
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

// keyAccountQuery reads keys with their accounts: keyColumns then accountColumns, each
// qualified by its table. Built once, since it runs on every request.
var keyAccountQuery = `SELECT ` + qualify("k", keyColumns) + `, ` + qualify("a", accountColumns) + ` FROM api_keys k
	JOIN accounts a ON a.id = k.account_id WHERE k.prefix = ? AND k.status = ?`

// qualify prefixes every column of a comma-separated list with alias.
func qualify(alias, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// ActiveKeyAccounts returns candidate keys with their accounts in one read (authentication
// made two on every request).
func (s *Store) ActiveKeyAccounts(ctx context.Context, prefix string) ([]store.KeyAccount, error) {
	rows, err := s.r.QueryContext(pointRead(ctx), keyAccountQuery, prefix, store.KeyActive)
	if err != nil {
		return nil, fmt.Errorf("keys by prefix: %w", err)
	}
	defer rows.Close()
	var out []store.KeyAccount
	for rows.Next() {
		var ka store.KeyAccount
		kd, kf := keyFields(&ka.Key)
		ad, af := accountFields(&ka.Account)
		if err := rows.Scan(append(kd, ad...)...); err != nil {
			return nil, fmt.Errorf("keys by prefix: %w", err)
		}
		kf()
		af()
		out = append(out, ka)
	}
	return out, rows.Err()
}

// KeyFreshness reads the few columns a remembered key and account can have changed in: five
// columns of two rows found by primary key, where ActiveKeyAccounts scans all twenty-five.
func (s *Store) KeyFreshness(ctx context.Context, keyID int64) (store.KeyFreshness, error) {
	var f store.KeyFreshness
	var used sql.NullString
	var updated string
	err := s.r.QueryRowContext(pointRead(ctx), `SELECT k.status, k.last_used_at, a.updated_at, a.balance_micro, a.reserved_micro
		FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?`, keyID).
		Scan(&f.Status, &used, &updated, &f.BalanceMicro, &f.ReservedMicro)
	if err != nil {
		return f, NotFound(err, "key freshness")
	}
	f.LastUsedAt, f.AccountUpdatedAt = NullTS(used), ParseTS(updated)
	return f, nil
}

// RotateKey revokes the account's active keys and inserts the new one atomically, so there is
// no instant at which both the old and the new key work.
func (s *Store) RotateKey(ctx context.Context, accountID int64, key *store.APIKey) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if _, err := GetAccountTx(ctx, tx, accountID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET status = ?, revoked_at = ? WHERE account_id = ? AND status = ?`,
			store.KeyRevoked, TS(now), accountID, store.KeyActive); err != nil {
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
		return k, NotFound(err, "get key")
	}
	return k, nil
}

// TouchKey records use at most once a minute per key, so that every request does not become
// a write.
func (s *Store) TouchKey(ctx context.Context, keyID int64, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?
		AND (last_used_at IS NULL OR last_used_at < ?)`, TS(at), keyID, TS(at.Add(-time.Minute)))
	if err != nil {
		return fmt.Errorf("touch key: %w", err)
	}
	return nil
}

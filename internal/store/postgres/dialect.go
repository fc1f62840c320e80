package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"

	"svc/internal/store/sqlstore"
)

// The shared store's transaction, under the name this package's SQL code uses.
type dbtx = sqlstore.Tx

// dialect is PostgreSQL's part of the shared store: writers run in parallel under READ
// COMMITTED, so the rules that read before they write take locks first.
type dialect struct{}

func (dialect) LockAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	return lockAccount(ctx, tx, accountID)
}

func (dialect) LockKB(ctx context.Context, tx *dbtx, accountID int64) error {
	return lockKB(ctx, tx, accountID)
}

func (dialect) LockExistingAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	return lockAccount(ctx, tx, accountID)
}

func (dialect) LockReleasable(ctx context.Context, tx *dbtx, expiredBy, createdBefore time.Time) ([]int64, bool, error) {
	ids, err := lockAccountsWithReleasable(ctx, tx, expiredBy, createdBefore)
	return ids, false, err
}

// InsertID reads the new row's id with RETURNING.
func (dialect) InsertID(ctx context.Context, tx *dbtx, query string, args ...any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, query+" RETURNING id", args...).Scan(&id)
	return id, err
}

// InsertIDs reads the ids with RETURNING. Concurrent inserts may interleave the identity's
// values, so the ids are read back rather than assumed consecutive; the rows take them in the
// order of VALUES, so sorted they are the rows' in that order. RETURNING's own order is not
// promised, hence the sort.
func (dialect) InsertIDs(ctx context.Context, tx *dbtx, query string, n int, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query+" RETURNING id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := make([]int64, 0, n)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) != n {
		return nil, fmt.Errorf("%d ids returned, want %d", len(ids), n)
	}
	slices.Sort(ids)
	return ids, nil
}

// ForUpdate row-locks what a SELECT reads (the embed token before its budget check, the
// account a deletion reads). NO KEY UPDATE, like every row lock here: it serialises the
// writers of the row, but not the foreign-key checks of rows inserted beside it (a visitor's
// conversation names its token and account, and takes KEY SHARE on both); FOR UPDATE conflicts
// with those, and parallel widget sends deadlocked on it (40P01) in the three-replica test.
func (dialect) ForUpdate() string { return " FOR NO KEY UPDATE" }

// UniqueViolation is a unique violation (SQLSTATE 23505): a check for an existing row and the
// insert after it are two statements, and under READ COMMITTED another transaction can
// insert the same key between them; the UNIQUE index then decides.
func (dialect) UniqueViolation(err error) bool { return isUniqueViolation(err) }

// SkipLocked: a worker of another process claiming at the same moment skips the rows this one
// holds instead of reading them as still due, and this transaction moves their lease before
// it lets them go.
func (dialect) SkipLocked() string { return " FOR UPDATE SKIP LOCKED" }

// lockAccount takes the account's row lock for the rest of tx: every rule on an account's
// money, quota and holds reads after it, so two transactions of one account run one after
// the other (as every write does on SQLite) while other accounts go on in parallel.
func lockAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = ? FOR NO KEY UPDATE`, accountID).Scan(&id)
	if err != nil {
		return sqlstore.NotFound(err, fmt.Sprintf("lock account %d", accountID))
	}
	return nil
}

// lockKB takes the account's knowledge-base lock for the rest of tx (a transaction-scoped
// advisory lock): every write of the account's documents, review items and their index
// reads and upserts by natural key after it, so two imports, crawls or dashboard edits of one
// account run one after the other, as on SQLite, without holding the account's row lock
// (which answers need) for an import's length.
func lockKB(ctx context.Context, tx *dbtx, accountID int64) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, kbLockKey(accountID)); err != nil {
		return fmt.Errorf("lock knowledge base of account %d: %w", accountID, err)
	}
	return nil
}

// Advisory lock keys: the low four bits name the kind of lock, the rest the account (0 for
// none), so that kinds never collide.
const (
	kbLockKind       = 1
	migrationLockKey = 2 // one for the whole database
)

// kbLockKey is the advisory lock key of an account's knowledge base.
func kbLockKey(accountID int64) int64 { return accountID<<4 | kbLockKind }

// lockAccountsWithReleasable locks, in id order, the accounts that have a reservation that
// expired by expiredBy or was created before createdBefore, and returns their ids.
func lockAccountsWithReleasable(ctx context.Context, tx *dbtx, expiredBy, createdBefore time.Time) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM accounts WHERE id IN (SELECT account_id FROM reservations
		WHERE expires_at <= ? OR created_at < ?) ORDER BY id FOR NO KEY UPDATE`, sqlstore.TS(expiredBy), sqlstore.TS(createdBefore))
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

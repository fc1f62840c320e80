package sqlite

import (
	"context"
	"time"

	"svc/internal/store/sqlstore"
)

// The shared store's pool and transaction, under the names this package's SQL code uses.
type (
	pool = sqlstore.Pool
	dbtx = sqlstore.Tx
)

// dialect is SQLite's part of the shared store: one writer connection serialises every
// write, so nothing needs a lock.
type dialect struct{}

// LockAccount does nothing: no other writer runs meanwhile.
func (dialect) LockAccount(context.Context, *dbtx, int64) error { return nil }

// LockExistingAccount reads the account, which is all it takes with one writer.
func (dialect) LockExistingAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	_, err := sqlstore.GetAccountTx(ctx, tx, accountID)
	return err
}

// LockReleasable locks nothing: every releasable reservation goes at once.
func (dialect) LockReleasable(context.Context, *dbtx, time.Time, time.Time) ([]int64, bool, error) {
	return nil, true, nil
}

// InsertID reads the last insert id: RETURNING's row costs more than the insert.
func (dialect) InsertID(ctx context.Context, tx *dbtx, query string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// InsertIDs runs the INSERT without RETURNING (whose rows cost more than the insert): the
// tables are AUTOINCREMENT and there is one writer, so the n rows of one INSERT get
// consecutive ids and the last is the statement's last insert id.
func (dialect) InsertIDs(ctx context.Context, tx *dbtx, query string, n int, args ...any) ([]int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	last, err := res.LastInsertId()
	if err != nil {
		return nil, err
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = last - int64(n-1-i)
	}
	return ids, nil
}

// ForUpdate is empty: with one writer, what a transaction reads stays as read.
func (dialect) ForUpdate() string { return "" }

// LockKB does nothing: no other writer runs meanwhile.
func (dialect) LockKB(context.Context, *dbtx, int64) error { return nil }

// UniqueViolation is false: with one writer, no row appears between a check and its insert.
func (dialect) UniqueViolation(error) bool { return false }

// SkipLocked is empty: one writer claims at a time, and its lease hides the rows it took.
func (dialect) SkipLocked() string { return "" }

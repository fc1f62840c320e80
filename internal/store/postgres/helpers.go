package postgres

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"svc/internal/store"
)

// timeLayout is the SQLite store's: fixed-width so that stored times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000Z"

func ts(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTS(v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		// Written by this package only; a parse failure means a hand-edited row. Fall back to
		// the RFC 3339 forms rather than failing the read.
		t, _ = time.Parse(time.RFC3339Nano, v)
	}
	return t.UTC()
}

func nullTS(v sql.NullString) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return parseTS(v.String)
}

func nullInt(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// notFound maps "no rows" to store.ErrNotFound, once for the whole package.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// conflictOnUnique maps a unique violation (SQLSTATE 23505) to store.ErrConflict: a check
// for an existing row and the insert after it are two statements, and under READ COMMITTED
// another transaction can insert the same key between them; the UNIQUE index then decides,
// and the loser gets the error the check would have given.
func conflictOnUnique(err error, what string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return fmt.Errorf("%s: %w", what, store.ErrConflict)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// isDeadlock reports whether PostgreSQL aborted the transaction to break a deadlock.
func isDeadlock(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40P01"
}

// turnAttempts bounds how often SaveTurn writes a turn that deadlock detection aborted.
const turnAttempts = 3

// oneRow turns the result of an UPDATE or DELETE of one row into ErrNotFound when it touched
// none; err is the statement's own error.
func oneRow(res sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return nil
}

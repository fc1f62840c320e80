package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"svc/internal/store"
)

// timeLayout is fixed-width so that stored times sort as text (both stores keep times as
// text in this form).
const timeLayout = "2006-01-02T15:04:05.000000Z"

// TS is t as stored.
func TS(t time.Time) string { return t.UTC().Format(timeLayout) }

// ParseTS reads a stored time.
func ParseTS(v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		// Stored by the stores only; a parse failure means a hand-edited row. Fall back to
		// the RFC 3339 forms rather than failing the read.
		t, _ = time.Parse(time.RFC3339Nano, v)
	}
	return t.UTC()
}

// NullTS reads a stored time that may be NULL (the zero time).
func NullTS(v sql.NullString) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return ParseTS(v.String)
}

// NullInt stores 0 as NULL.
func NullInt(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

// BoolInt stores a bool as 0 or 1.
func BoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// NotFound maps "no rows" to store.ErrNotFound, once for both stores.
func NotFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// OneRow turns the result of an UPDATE or DELETE of one row into ErrNotFound when it touched
// none; err is the statement's own error.
func OneRow(res sql.Result, err error, what string) error {
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

// Cancelled names ctx's end as the cause when database/sql rolled the transaction back
// because ctx ended: its own error then says only that the transaction is done, and a
// client that went away would read as a store failure.
func Cancelled(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, sql.ErrTxDone) {
		return fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	return err
}

// Placeholders returns n comma-separated bind parameters.
func Placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// pointRead is the context of a read by key that finishes in microseconds (the key with its
// account, the API conversation, the KB's totals, a cached answer: every send makes them).
// For a context that can end, the SQLite driver and database/sql each start a goroutine per
// statement that waits to interrupt it; for these reads that was most of their cost beside
// SQLite, and nothing would be gained by interrupting one.
func pointRead(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

package postgres

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"svc/internal/store"
)

// conflictOnUnique maps a unique violation (SQLSTATE 23505) to store.ErrConflict: a check
// for an existing row and the insert after it are two statements, and under READ COMMITTED
// another transaction can insert the same key between them; the UNIQUE index then decides,
// and the loser gets the error the check would have given.
func conflictOnUnique(err error, what string) error {
	if isUniqueViolation(err) {
		return fmt.Errorf("%s: %w", what, store.ErrConflict)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// isUniqueViolation reports whether err is PostgreSQL's unique violation (SQLSTATE 23505).
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// isDeadlock reports whether PostgreSQL aborted the transaction to break a deadlock.
func isDeadlock(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40P01"
}

// turnAttempts bounds how often SaveTurn writes a turn that deadlock detection aborted.
const turnAttempts = 3

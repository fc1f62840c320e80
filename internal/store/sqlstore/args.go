package sqlstore

import (
	"database/sql"
	"fmt"
	"reflect"

	"svc/internal/nultext"
)

// checkArgs refuses a query whose text arguments hold a NUL (nultext): PostgreSQL refuses
// such text with an error of its own (SQLSTATE 22021) and SQLite would keep it, so both
// stores answer it here, alike and before the database sees it, with the client error
// nultext.Stored. Byte slices are data (hashes) and may hold any byte.
func checkArgs(args []any) error {
	for i, a := range args {
		var s string
		switch v := a.(type) {
		case string:
			s = v
		case nil, int64, int, bool, []byte:
			continue
		case *string:
			if v == nil {
				continue
			}
			s = *v
		case sql.NullString:
			s = v.String
		default:
			// A named string type (a kind, a role) is text too.
			if rv := reflect.ValueOf(a); rv.Kind() == reflect.String {
				s = rv.String()
			}
		}
		if nultext.In(s) {
			return fmt.Errorf("sqlstore: query argument %d: %w", i+1, nultext.Stored())
		}
	}
	return nil
}

// Row is a *sql.Row, or the error that kept its query from running (checkArgs): QueryRow
// has no error of its own to return, so Scan and Err give it.
type Row struct {
	*sql.Row
	err error
}

// Scan copies the row's columns into dest, or returns the error that kept the query from
// running.
func (r *Row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.Row.Scan(dest...)
}

// Err is the row's error, without scanning it.
func (r *Row) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.Row.Err()
}

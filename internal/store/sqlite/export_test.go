package sqlite

import "github.com/pressly/goose/v3"

// GoMigrations are the migrations written in Go, for tests that drive goose themselves.
var GoMigrations = []*goose.Migration{migration9, migration12}

// ForeignKeys reports PRAGMA foreign_keys on the writer connection.
func (s *Store) ForeignKeys() (on int, err error) {
	err = s.w.QueryRow(`PRAGMA foreign_keys`).Scan(&on)
	return on, err
}

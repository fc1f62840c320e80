package sqlite

import "github.com/pressly/goose/v3"

// GoMigrations are the migrations written in Go, for tests that drive goose themselves.
var GoMigrations = []*goose.Migration{migration9}

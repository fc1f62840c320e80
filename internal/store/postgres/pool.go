package postgres

import (
	"database/sql"
	"strconv"
	"strings"
)

// rebind rewrites the ? placeholders of query, outside quoted text, to PostgreSQL's $1, $2,
// …: the shared store's queries take SQLite's ?, and the pool rewrites each text once.
func rebind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// snapshot is the options of a read that spans several queries: one consistent view, as a
// SQLite read transaction gives.
func snapshot() *sql.TxOptions {
	return &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
}

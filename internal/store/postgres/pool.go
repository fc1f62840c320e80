package postgres

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// pool is the pgx pool seen through database/sql, taking the SQLite store's ? placeholders:
// the queries of both stores then read alike, and each is rewritten to PostgreSQL's $n once.
// pgx itself prepares and caches each statement per connection.
type pool struct {
	*sql.DB
	rebound sync.Map // query with ? -> query with $n
}

func newPool(db *sql.DB) *pool { return &pool{DB: db} }

// bind rewrites the ? placeholders of query, outside quoted text, to $1, $2, ….
func (p *pool) bind(query string) string {
	if q, ok := p.rebound.Load(query); ok {
		return q.(string)
	}
	q := rebind(query)
	p.rebound.Store(query, q)
	return q
}

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

func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return p.DB.QueryContext(ctx, p.bind(query), args...)
}

func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return p.DB.QueryRowContext(ctx, p.bind(query), args...)
}

func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.DB.ExecContext(ctx, p.bind(query), args...)
}

func (p *pool) begin(ctx context.Context, opts *sql.TxOptions) (*dbtx, error) {
	tx, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &dbtx{Tx: tx, p: p}, nil
}

// dbtx is a transaction taking ? placeholders.
type dbtx struct {
	*sql.Tx
	p *pool
}

func (t *dbtx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.p.bind(query), args...)
}

func (t *dbtx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.p.bind(query), args...)
}

func (t *dbtx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.p.bind(query), args...)
}

// snapshot is the options of a read that spans several queries: one consistent view, as a
// SQLite read transaction gives.
func snapshot() *sql.TxOptions {
	return &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
}

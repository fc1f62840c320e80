package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// maxCachedStatements bounds the statement cache of one pool. The store's queries are a
// fixed set of texts, except those with a variable-length IN list, whose texts differ by the
// list's length; past the bound a query is simply prepared for its one use, as before.
const maxCachedStatements = 512

// pool is a database handle whose statements are prepared once per connection and then
// reused. Parsing SQL was the largest cost of a cheap request (about half of a cached
// answer's CPU time): database/sql prepares and finalizes a statement on every Query or Exec
// that is not made through a *sql.Stmt. A *sql.Stmt keeps one driver statement per
// connection it has run on, and the driver keeps SQLite's compiled statement in it, so a
// cached *sql.Stmt turns each later call into a bind and a step.
type pool struct {
	*sql.DB

	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

func newPool(db *sql.DB) *pool { return &pool{DB: db, stmts: map[string]*sql.Stmt{}} }

// cached returns query's statement when it is in the cache.
func (p *pool) cached(query string) *sql.Stmt {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stmts[query]
}

// stmt returns the cached statement for query, preparing it on first use. It returns nil
// when the cache is full: the caller then runs query unprepared. It must not be called while
// the caller holds one of the pool's connections (in a transaction): preparing takes a
// connection of its own, and the writer pool has only one.
func (p *pool) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := p.cached(query); st != nil {
		return st, nil
	}
	p.mu.RLock()
	full := len(p.stmts) >= maxCachedStatements
	p.mu.RUnlock()
	if full {
		return nil, nil
	}
	// Prepared without holding the lock, which would make every other caller wait for a
	// connection, and without the caller's context: the statement outlives the request, and
	// a request that ends mid-prepare must not leave a broken entry behind.
	st, err := p.DB.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.stmts[query]; ok {
		// Another caller prepared it meanwhile.
		_ = st.Close()
		return old, nil
	}
	p.stmts[query] = st
	return st, nil
}

// QueryContext runs query through its cached statement.
func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := p.stmt(ctx, query)
	if err != nil || st == nil {
		// An error preparing is reported by the unprepared call itself, in its own words.
		return p.DB.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query through its cached statement.
func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := p.stmt(ctx, query)
	if err != nil || st == nil {
		return p.DB.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// ExecContext runs query through its cached statement.
func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := p.stmt(ctx, query)
	if err != nil || st == nil {
		return p.DB.ExecContext(ctx, query, args...)
	}
	return st.ExecContext(ctx, args...)
}

// begin starts a transaction whose statements come from the pool's cache.
func (p *pool) begin(ctx context.Context, opts *sql.TxOptions) (*dbtx, error) {
	tx, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &dbtx{Tx: tx, p: p}, nil
}

// Close closes the cached statements, then the database.
func (p *pool) Close() error {
	p.mu.Lock()
	errs := make([]error, 0, len(p.stmts)+1)
	for q, st := range p.stmts {
		errs = append(errs, st.Close())
		delete(p.stmts, q)
	}
	p.mu.Unlock()
	return errors.Join(append(errs, p.DB.Close())...)
}

// dbtx is a transaction that runs the pool's cached statements on its connection:
// Tx.StmtContext finds the driver statement already prepared there, or prepares it there
// once for every later transaction on that connection. A query not yet in the cache runs
// unprepared and is prepared into the cache when the transaction ends, because preparing it
// now would wait for a connection while this transaction holds one (on the writer pool, the
// only one).
//
// One driver statement serves every use of its text on a connection, and a transaction
// keeps its connection, so a text whose rows may still be open in this transaction (it ran
// through QueryContext before) runs unprepared: reusing the statement would reset the rows
// the caller is still reading.
type dbtx struct {
	*sql.Tx
	p       *pool
	missing []string
	queried map[string]bool
	// tally, when set, keeps the daily totals of the turn being written for its batch.
	tally *batchTally
}

func (t *dbtx) txStmt(ctx context.Context, query string) *sql.Stmt {
	st := t.p.cached(query)
	if st == nil {
		t.missing = append(t.missing, query)
		return nil
	}
	// Closed with the transaction; no need to close it here.
	return t.Tx.StmtContext(ctx, st)
}

// Commit commits, then prepares the statements the transaction missed.
func (t *dbtx) Commit() error {
	err := t.Tx.Commit()
	t.warm()
	return err
}

// Rollback rolls back, then prepares the statements the transaction missed.
func (t *dbtx) Rollback() error {
	err := t.Tx.Rollback()
	t.warm()
	return err
}

func (t *dbtx) warm() {
	for _, q := range t.missing {
		// A statement that fails to prepare is left out; its query runs unprepared.
		_, _ = t.p.stmt(context.Background(), q)
	}
	t.missing = nil
}

// QueryContext runs query in the transaction through the cached statement.
func (t *dbtx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if t.queried[query] {
		return t.Tx.QueryContext(ctx, query, args...)
	}
	if t.queried == nil {
		t.queried = map[string]bool{}
	}
	t.queried[query] = true
	if st := t.txStmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query in the transaction through the cached statement.
func (t *dbtx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if t.queried[query] {
		return t.Tx.QueryRowContext(ctx, query, args...)
	}
	if st := t.txStmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// ExecContext runs query in the transaction through the cached statement.
func (t *dbtx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.txStmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

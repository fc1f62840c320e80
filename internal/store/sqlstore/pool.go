package sqlstore

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

// PoolOptions say how a pool hands its queries to the driver.
type PoolOptions struct {
	// CacheStatements prepares each query once per connection and reuses it (SQLite: parsing
	// SQL was about half of a cached answer's CPU time). PostgreSQL's pgx caches prepared
	// statements per connection itself.
	CacheStatements bool
	// Rebind, when set, rewrites a query's ? placeholders for the driver (PostgreSQL's $n).
	// Every query of the shared code is written with ?, so both stores' SQL reads alike.
	Rebind func(query string) string
}

// Pool is a database handle taking ? placeholders, optionally with a statement cache.
//
// With the cache, parsing is paid once: database/sql prepares and finalizes a statement on
// every Query or Exec that is not made through a *sql.Stmt. A *sql.Stmt keeps one driver
// statement per connection it has run on, and the driver keeps the compiled statement in
// it, so a cached *sql.Stmt turns each later call into a bind and a step.
type Pool struct {
	*sql.DB

	rebind  func(string) string
	rebound sync.Map // query with ? -> the driver's form, when rebind is set

	mu    sync.RWMutex
	stmts map[string]*sql.Stmt // nil without a statement cache
}

// NewPool wraps db.
func NewPool(db *sql.DB, opts PoolOptions) *Pool {
	p := &Pool{DB: db, rebind: opts.Rebind}
	if opts.CacheStatements {
		p.stmts = map[string]*sql.Stmt{}
	}
	return p
}

// bind returns query in the driver's placeholder form, rewriting each text once.
func (p *Pool) bind(query string) string {
	if p.rebind == nil {
		return query
	}
	if q, ok := p.rebound.Load(query); ok {
		return q.(string)
	}
	q := p.rebind(query)
	p.rebound.Store(query, q)
	return q
}

// cached returns query's statement when it is in the cache.
func (p *Pool) cached(query string) *sql.Stmt {
	if p.stmts == nil {
		return nil
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stmts[query]
}

// stmt returns the cached statement for query, preparing it on first use. It returns nil
// when the pool has no cache or the cache is full: the caller then runs query unprepared. It
// must not be called while the caller holds one of the pool's connections (in a
// transaction): preparing takes a connection of its own, and SQLite's writer pool has only
// one.
func (p *Pool) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if p.stmts == nil {
		return nil, nil
	}
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
	st, err := p.DB.PrepareContext(context.WithoutCancel(ctx), p.bind(query))
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
func (p *Pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	st, err := p.stmt(ctx, query)
	if err != nil || st == nil {
		// An error preparing is reported by the unprepared call itself, in its own words.
		return p.DB.QueryContext(ctx, p.bind(query), args...)
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query through its cached statement.
func (p *Pool) QueryRowContext(ctx context.Context, query string, args ...any) *Row {
	if err := checkArgs(args); err != nil {
		return &Row{err: err}
	}
	st, err := p.stmt(ctx, query)
	if err != nil || st == nil {
		return &Row{Row: p.DB.QueryRowContext(ctx, p.bind(query), args...)}
	}
	return &Row{Row: st.QueryRowContext(ctx, args...)}
}

// ExecContext runs query through its cached statement.
func (p *Pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	st, err := p.stmt(ctx, query)
	if err != nil || st == nil {
		return p.DB.ExecContext(ctx, p.bind(query), args...)
	}
	return st.ExecContext(ctx, args...)
}

// Begin starts a transaction whose statements come from the pool's cache.
func (p *Pool) Begin(ctx context.Context, opts *sql.TxOptions) (*Tx, error) {
	tx, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: tx, p: p}, nil
}

// Close closes the cached statements, then the database.
func (p *Pool) Close() error {
	p.mu.Lock()
	errs := make([]error, 0, len(p.stmts)+1)
	for q, st := range p.stmts {
		errs = append(errs, st.Close())
		delete(p.stmts, q)
	}
	p.mu.Unlock()
	return errors.Join(append(errs, p.DB.Close())...)
}

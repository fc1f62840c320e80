package sqlstore

import (
	"context"
	"database/sql"
)

// Tx is a transaction taking ? placeholders that runs the pool's cached statements on its
// connection: Tx.StmtContext finds the driver statement already prepared there, or prepares
// it there once for every later transaction on that connection. A query not yet in the cache
// runs unprepared and is prepared into the cache when the transaction ends, because
// preparing it now would wait for a connection while this transaction holds one (on
// SQLite's writer pool, the only one).
//
// One driver statement serves every use of its text on a connection, and a transaction
// keeps its connection, so a text whose rows may still be open in this transaction (it ran
// through QueryContext before) runs unprepared: reusing the statement would reset the rows
// the caller is still reading.
type Tx struct {
	*sql.Tx
	p       *Pool
	missing []string
	queried map[string]bool
	// Tally, when set, keeps the daily totals of the turn being written for its batch
	// (SQLite's group commit); nil, every count is written as it happens.
	Tally *Tally
}

// ForgetQueried lets every text use its cached statement again: the caller's earlier
// statements have all finished and closed their rows.
func (t *Tx) ForgetQueried() { t.queried = nil }

func (t *Tx) txStmt(ctx context.Context, query string) *sql.Stmt {
	if t.p.stmts == nil {
		return nil
	}
	st := t.p.cached(query)
	if st == nil {
		t.missing = append(t.missing, query)
		return nil
	}
	// Closed with the transaction; no need to close it here.
	return t.Tx.StmtContext(ctx, st)
}

// Commit commits, then prepares the statements the transaction missed.
func (t *Tx) Commit() error {
	err := t.Tx.Commit()
	t.warm()
	return err
}

// Rollback rolls back, then prepares the statements the transaction missed.
func (t *Tx) Rollback() error {
	err := t.Tx.Rollback()
	t.warm()
	return err
}

func (t *Tx) warm() {
	for _, q := range t.missing {
		// A statement that fails to prepare is left out; its query runs unprepared.
		_, _ = t.p.stmt(context.Background(), q)
	}
	t.missing = nil
}

// QueryContext runs query in the transaction through the cached statement.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	if t.p.stmts == nil {
		return t.Tx.QueryContext(ctx, t.p.bind(query), args...)
	}
	if t.queried[query] {
		return t.Tx.QueryContext(ctx, t.p.bind(query), args...)
	}
	if t.queried == nil {
		t.queried = map[string]bool{}
	}
	t.queried[query] = true
	if st := t.txStmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, t.p.bind(query), args...)
}

// QueryRowContext runs query in the transaction through the cached statement.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *Row {
	if err := checkArgs(args); err != nil {
		return &Row{err: err}
	}
	if t.queried[query] {
		return &Row{Row: t.Tx.QueryRowContext(ctx, t.p.bind(query), args...)}
	}
	if st := t.txStmt(ctx, query); st != nil {
		return &Row{Row: st.QueryRowContext(ctx, args...)}
	}
	return &Row{Row: t.Tx.QueryRowContext(ctx, t.p.bind(query), args...)}
}

// ExecContext runs query in the transaction through the cached statement.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	if st := t.txStmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, t.p.bind(query), args...)
}

package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	lru "github.com/hashicorp/golang-lru/v2"
	"time"

	"svc/internal/store"
)

// Dialect is what a database does its own way inside a shared method: the write path's
// concurrency (SQLite's single writer serialises every write; PostgreSQL takes row and
// advisory locks) and SQL that differs by dialect. Each method is called where the shared
// code needs it; SQLite's answers add no query where SQLite had none.
type Dialect interface {
	// LockAccount holds the account's row lock for the rest of tx where writers run in
	// parallel (ErrNotFound for no account): every rule on an account's money, quota and
	// holds reads after it, so two transactions of one account run one after the other, as
	// every write does on SQLite, where it does nothing.
	LockAccount(ctx context.Context, tx *Tx, accountID int64) error
	// LockExistingAccount is LockAccount, and ErrNotFound for no account on every database
	// (SQLite reads the account's row).
	LockExistingAccount(ctx context.Context, tx *Tx, accountID int64) error
	// LockReleasable locks, in id order, the accounts with a reservation that expired by
	// expiredBy or was created before createdBefore, and returns their ids; every is true
	// where no lock is needed and every such reservation may go at once.
	LockReleasable(ctx context.Context, tx *Tx, expiredBy, createdBefore time.Time) (locked []int64, every bool, err error)
	// InsertID runs an INSERT of one row and returns the row's id (SQLite: the last insert
	// id, without RETURNING's cost; PostgreSQL: RETURNING id).
	InsertID(ctx context.Context, tx *Tx, query string, args ...any) (int64, error)
	// InsertIDs runs an INSERT of n rows and returns their ids in the order of VALUES.
	InsertIDs(ctx context.Context, tx *Tx, query string, n int, args ...any) ([]int64, error)
	// DeleteChunks deletes a document's chunks with their index entries and statistics.
	DeleteChunks(ctx context.Context, tx *Tx, docID int64) error
	// InsertChunks inserts d's chunks (setting their ids and ords), indexes them and adds
	// them to the statistics.
	InsertChunks(ctx context.Context, tx *Tx, accountID int64, d *store.Document) error
	// IndexWritten runs after a transaction wrote documents, once their stale answers are
	// withdrawn.
	IndexWritten(ctx context.Context, tx *Tx) error
	// DeleteAccountIndex deletes the account's index entries that DeleteAccount's deletes
	// of its tables do not take with them.
	DeleteAccountIndex(ctx context.Context, tx *Tx, accountID int64) error
	// TermCondition is the condition that a document aliased d has a chunk holding t, with
	// its arguments; ok is false when t asks for nothing (the condition is then left out).
	TermCondition(accountID int64, t store.SearchTerm) (cond string, args []any, ok bool)
	// TermExpr is the index's query for term t in the account's chunks; "" when t asks
	// for nothing the index can hold.
	TermExpr(accountID int64, t store.SearchTerm) string
	// CountTerm counts the account's chunks that the index finds for expr (a TermExpr).
	CountTerm(ctx context.Context, r *Pool, accountID int64, expr string) (int, error)
	// LikeASCIIFold is the LIKE operator that ignores the case of ASCII letters at least
	// (SQLite's LIKE does; PostgreSQL's is ILIKE).
	LikeASCIIFold() string
	// ForUpdate is the clause that row-locks what a SELECT reads ("" with one writer).
	ForUpdate() string
	// LockKB serialises the writes of one account's knowledge base (documents, review items
	// and their index) for the rest of tx; nothing where there is one writer.
	LockKB(ctx context.Context, tx *Tx, accountID int64) error
	// UniqueViolation reports whether err is a UNIQUE index refusing a row that a
	// concurrent writer inserted after this transaction checked for it (never, with one
	// writer).
	UniqueViolation(err error) bool
	// SkipLocked is the clause after a SELECT of rows this transaction is about to lease
	// (the outbox): where several processes claim at once, it locks the rows read and skips
	// those another claim holds; "" where one writer claims at a time.
	SkipLocked() string
}

// Config is what a store package hands the shared store.
type Config struct {
	Writer *Pool // where writes go (SQLite: its single writer connection)
	Reader *Pool // where reads go; may be Writer
	Now    func() time.Time
	// Snapshot is the options of a read that spans several queries: nil where a read
	// transaction already sees one consistent view (SQLite), repeatable read on PostgreSQL.
	Snapshot *sql.TxOptions
	Dialect  Dialect
}

// Store is the shared implementation of store.Store's methods whose SQL and rules are the
// same on both databases; sqlite.Store and postgres.Store embed it.
type Store struct {
	w, r     *Pool
	now      func() time.Time
	snapshot *sql.TxOptions
	d        Dialect
	// docFreqs remembers term counts by the version of the account's chunks (see dfKey).
	docFreqs *lru.Cache[dfKey, int]

	// Queries that end in a dialect's clause, built once.
	claimNotices     string // claimNoticesQuery + SkipLocked
	tokenStatusQuery string // tokenStatusQuery + ForUpdate
	docsText         string // ListDocuments' text condition with LikeASCIIFold
}

// New returns the shared store over c's pools.
func New(c Config) (*Store, error) {
	docFreqs, err := lru.New[dfKey, int](docFreqsKept)
	if err != nil {
		return nil, fmt.Errorf("term counts: %w", err)
	}
	return &Store{w: c.Writer, r: c.Reader, now: c.Now, snapshot: c.Snapshot, d: c.Dialect, docFreqs: docFreqs,
		claimNotices:     claimNoticesQuery + c.Dialect.SkipLocked(),
		tokenStatusQuery: tokenStatusQuery + c.Dialect.ForUpdate(),
		docsText:         docsTextMatch(c.Dialect.LikeASCIIFold())}, nil
}

// InTx runs fn in a write transaction, committing when fn returns nil.
func (s *Store) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	tx, err := s.w.Begin(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return Cancelled(ctx, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", Cancelled(ctx, err))
	}
	return nil
}

// ReadTx begins a read transaction that sees one consistent view.
func (s *Store) ReadTx(ctx context.Context) (*Tx, error) { return s.r.Begin(ctx, s.snapshot) }

// Package postgres is the PostgreSQL store: the records and rules of store/sqlstore, shared
// with store/sqlite, on a pgx v5 connection pool, for several `svc serve` processes sharing
// one database (DECISIONS.md, "Several machines").
//
// SQLite serialises every write through one connection, so its read-then-write rules hold by
// construction. PostgreSQL runs writers in parallel under READ COMMITTED: every shared rule
// that reads before it writes either is one conditional statement or first takes, through
// this package's Dialect (dialect.go), a row lock (SELECT ... FOR UPDATE) on the row that owns
// the rule: the account for money, quota and holds, the embed token for its budget and its
// count. See ARCHITECTURE.md, "Shared SQL code" and "PostgreSQL store".
package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Options tune the store. The zero value is usable.
type Options struct {
	// MaxConns bounds the pool; 0 keeps pgxpool's default (the larger of 4 and the CPUs).
	MaxConns int32
	Now      func() time.Time // clock; default time.Now
	// Configure, when set, edits the pool's configuration before it connects (tests set each
	// connection's search_path to their own schema there).
	Configure func(*pgxpool.Config)
}

// Store implements store.Store on PostgreSQL.
type Store struct {
	*sqlstore.Store // the methods both stores share, on db

	pgx *pgxpool.Pool
	db  *sqlstore.Pool // the same pool through database/sql, with SQLite-style ? placeholders
	now func() time.Time
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (postgres://…) and applies pending migrations.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres url: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.Configure != nil {
		opts.Configure(cfg)
	}
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect postgres: %w", err)
	}
	db := sqlstore.NewPool(stdlib.OpenDBFromPool(p), sqlstore.PoolOptions{Rebind: rebind})
	s := &Store{pgx: p, db: db, now: opts.Now}
	s.Store, err = sqlstore.New(sqlstore.Config{Writer: db, Reader: db, Now: opts.Now, Snapshot: snapshot(), Dialect: dialect{}})
	if err != nil {
		s.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, s.db.DB, sub)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	// Several servers starting at once on a new database would each apply the migrations:
	// one session advisory lock, on a connection of its own, makes them take turns (the
	// others wait in pg_advisory_lock, without polling, and then find nothing to apply).
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLockKey); err != nil {
		return fmt.Errorf("migrations: lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLockKey)
	}()
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// Ping checks that the pool reaches the database.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pgx.Ping(ctx); err != nil {
		return fmt.Errorf("ping postgres: %w", err)
	}
	return nil
}

// Close closes the pool.
func (s *Store) Close() error {
	err := s.db.Close()
	s.pgx.Close()
	return err
}

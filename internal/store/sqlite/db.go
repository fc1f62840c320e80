// Package sqlite is the embedded store: one SQLite file in WAL mode, opened through the pure-Go
// modernc.org/sqlite driver, with one writer connection and a small pool of readers.
//
// SQLite allows one writer at a time. Funnelling every write through one connection whose
// transactions begin IMMEDIATE makes writers queue inside the process instead of failing with
// SQLITE_BUSY, while readers run in parallel on their own connections. Other processes (the
// operator CLI while `svc serve` runs) take the same file lock and wait up to busy_timeout.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// FileName is the database file inside the data directory.
const FileName = "svc.db"

// Options tune the store. The zero value is usable.
type Options struct {
	Readers     int              // reader pool size; default 4
	BusyTimeout time.Duration    // how long a writer waits for another process; default 5s
	Now         func() time.Time // clock; default time.Now
}

// Store implements store.Store on SQLite.
type Store struct {
	*sqlstore.Store // the methods both stores share, on w and r

	w   *pool // exactly one connection: every write goes here
	r   *pool // read-only pool
	now func() time.Time

	turns     *turnBatcher // group commit of SaveTurn
	ckpt      *checkpointer
	closeOnce sync.Once
}

var _ store.Store = (*Store)(nil)

// Open opens (creating when needed) the database in dir and applies pending migrations.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	if opts.Readers <= 0 {
		opts.Readers = 4
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	path := filepath.Join(dir, FileName)

	pragmas := []string{
		fmt.Sprintf("busy_timeout(%d)", opts.BusyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"foreign_keys(1)",
		"synchronous(NORMAL)",
		// Group commit writes each turn in a savepoint, whose journal of original pages is a
		// temporary file unless temporary storage is memory: one write system call per page.
		"temp_store(MEMORY)",
	}
	// The writer's page cache is 1 MiB, not SQLite's 2 MiB: a turn touches the tails of a few
	// tables and indexes, and the other megabyte was idle memory.
	w, err := sql.Open("sqlite", dsn(path, append(pragmas[:len(pragmas):len(pragmas)], "cache_size(-1024)",
		fmt.Sprintf("wal_autocheckpoint(%d)", writerAutoCheckpoint)), "immediate"))
	if err != nil {
		return nil, fmt.Errorf("open writer: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)

	// Each reader keeps a small page cache of its own (512 KiB, not SQLite's 2 MiB): the
	// kernel's page cache already holds the file for all of them, and eight private copies
	// of the hot pages were most of an idle server's memory.
	r, err := sql.Open("sqlite", dsn(path, append(pragmas[:1:1], "foreign_keys(1)", "query_only(1)",
		"cache_size(-512)"), "deferred"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open readers: %w", err)
	}
	r.SetMaxOpenConns(opts.Readers)
	r.SetMaxIdleConns(opts.Readers)

	// SQLite's driver takes ? placeholders as they are, and parsing SQL was the largest cost
	// of a cheap request: each pool keeps its statements prepared.
	cached := sqlstore.PoolOptions{CacheStatements: true}
	s := &Store{w: sqlstore.NewPool(w, cached), r: sqlstore.NewPool(r, cached), now: opts.Now}
	s.Store, err = sqlstore.New(sqlstore.Config{Writer: s.w, Reader: s.r, Now: opts.Now, Dialect: dialect{}})
	if err != nil {
		_ = errors.Join(s.r.Close(), s.w.Close())
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		_ = errors.Join(s.r.Close(), s.w.Close())
		return nil, err
	}
	if s.ckpt, err = newCheckpointer(path, append(pragmas[:len(pragmas):len(pragmas)], "cache_size(-256)")); err != nil {
		_ = errors.Join(s.r.Close(), s.w.Close())
		return nil, err
	}
	s.turns = newTurnBatcher()
	go s.turns.run(s)
	return s, nil
}

func dsn(path string, pragmas []string, txlock string) string {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", txlock)
	return "file:" + path + "?" + q.Encode()
}

// goMigrations are the migrations written in Go; they run with the SQL files, and restore
// reads the newest version this binary knows from both.
var goMigrations = []*goose.Migration{migration9, migration12}

func (s *Store) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, s.w.DB, sub, goose.WithGoMigrations(goMigrations...))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// Ping checks that both pools reach the database.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping writer: %w", err)
	}
	var one int
	if err := s.r.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping reader: %w", err)
	}
	return nil
}

// Close stops the turn writer and closes both pools.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.turns.close() // the checkpointer's only caller
		err = s.ckpt.close()
	})
	return errors.Join(err, s.r.Close(), s.w.Close())
}

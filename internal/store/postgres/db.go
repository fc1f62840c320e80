// Package postgres is the PostgreSQL store: the same records and rules as store/sqlite, on a
// pgx v5 connection pool, for several `svc serve` processes sharing one database
// (DECISIONS.md, "Several machines").
//
// SQLite serialises every write through one connection, so its read-then-write rules hold by
// construction. PostgreSQL runs writers in parallel under READ COMMITTED: every rule that reads
// before it writes here either is one conditional statement or first takes a row lock
// (SELECT ... FOR UPDATE) on the row that owns the rule: the account for money, quota and
// holds, the embed token for its budget and its count. See ARCHITECTURE.md, "PostgreSQL store".
package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
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
	db  *pool // the same pool through database/sql, with SQLite-style ? placeholders
	now func() time.Time
	// docFreqs remembers term counts by the version of the account's chunks (see dfKey).
	docFreqs *lru.Cache[dfKey, int]
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
	docFreqs, err := lru.New[dfKey, int](docFreqsKept)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("term counts: %w", err)
	}
	db := sqlstore.NewPool(stdlib.OpenDBFromPool(p), sqlstore.PoolOptions{Rebind: rebind})
	s := &Store{pgx: p, db: db, now: opts.Now, docFreqs: docFreqs}
	s.Store = sqlstore.New(sqlstore.Config{Writer: db, Reader: db, Now: opts.Now, Snapshot: snapshot(), Dialect: dialect{}})
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

// dialect is PostgreSQL's part of the shared store: writers run in parallel under READ
// COMMITTED, so the rules that read before they write take locks first.
type dialect struct{}

func (dialect) LockAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	return lockAccount(ctx, tx, accountID)
}

func (dialect) LockKB(ctx context.Context, tx *dbtx, accountID int64) error {
	return lockKB(ctx, tx, accountID)
}

func (dialect) LockExistingAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	return lockAccount(ctx, tx, accountID)
}

func (dialect) LockReleasable(ctx context.Context, tx *dbtx, expiredBy, createdBefore time.Time) ([]int64, bool, error) {
	ids, err := lockAccountsWithReleasable(ctx, tx, expiredBy, createdBefore)
	return ids, false, err
}

// InsertID reads the new row's id with RETURNING.
func (dialect) InsertID(ctx context.Context, tx *dbtx, query string, args ...any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, query+" RETURNING id", args...).Scan(&id)
	return id, err
}

// InsertPairIDs reads both ids with RETURNING. Concurrent inserts may interleave the
// identity's values, so the ids are read back rather than assumed consecutive; the rows take
// them in the order of VALUES, so the smaller is the first row's. RETURNING's own order is
// not promised, hence min and max.
func (dialect) InsertPairIDs(ctx context.Context, tx *dbtx, query string, args ...any) (int64, int64, error) {
	rows, err := tx.QueryContext(ctx, query+" RETURNING id", args...)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	ids := make([]int64, 0, 2)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	if len(ids) != 2 {
		return 0, 0, fmt.Errorf("%d ids returned, want 2", len(ids))
	}
	return min(ids[0], ids[1]), max(ids[0], ids[1]), nil
}

// ForUpdate row-locks what a SELECT reads (the embed token before its budget check).
func (dialect) ForUpdate() string { return " FOR UPDATE" }

// UniqueViolation is a unique violation (SQLSTATE 23505): a check for an existing row and the
// insert after it are two statements, and under READ COMMITTED another transaction can
// insert the same key between them; the UNIQUE index then decides.
func (dialect) UniqueViolation(err error) bool { return isUniqueViolation(err) }

// SkipLocked: a worker of another process claiming at the same moment skips the rows this one
// holds instead of reading them as still due, and this transaction moves their lease before
// it lets them go.
func (dialect) SkipLocked() string { return " FOR UPDATE SKIP LOCKED" }

// lockAccount takes the account's row lock for the rest of tx: every rule on an account's
// money, quota and holds reads after it, so two transactions of one account run one after
// the other (as every write does on SQLite) while other accounts go on in parallel.
func lockAccount(ctx context.Context, tx *dbtx, accountID int64) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = ? FOR UPDATE`, accountID).Scan(&id)
	if err != nil {
		return notFound(err, fmt.Sprintf("lock account %d", accountID))
	}
	return nil
}

// lockKB takes the account's knowledge-base lock for the rest of tx (a transaction-scoped
// advisory lock): every write of the account's documents, review items and their index
// reads and upserts by natural key after it, so two imports, crawls or dashboard edits of one
// account run one after the other, as on SQLite, without holding the account's row lock
// (which answers need) for an import's length.
func lockKB(ctx context.Context, tx *dbtx, accountID int64) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, kbLockKey(accountID)); err != nil {
		return fmt.Errorf("lock knowledge base of account %d: %w", accountID, err)
	}
	return nil
}

// Advisory lock keys: the low four bits name the kind of lock, the rest the account (0 for
// none), so that kinds never collide.
const (
	kbLockKind       = 1
	migrationLockKey = 2 // one for the whole database
)

// kbLockKey is the advisory lock key of an account's knowledge base.
func kbLockKey(accountID int64) int64 { return accountID<<4 | kbLockKind }

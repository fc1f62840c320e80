// Package storecopy moves every record of one svc store into another, empty one: a SQLite
// data directory into PostgreSQL when an installation grows to several machines, and back
// (DECISIONS.md, "Several machines": `svc store copy --from SRC --to DST`).
//
// The target is opened once through its store's own Open, so its migrations run and its
// schema is this binary's newest; the rows then move through database/sql table by table,
// parents first, over the columns the two schemas share, in one transaction on the target:
// a copy that fails leaves the target as empty as it found it, ready for another try. The
// source is read in one read-only transaction, a snapshot, so a copy taken while `svc serve`
// writes is consistent and is verified against that same snapshot. Columns and tables that
// are an index of the target's own (PostgreSQL's lexemes, FTS5's table) are rebuilt there
// from the copied chunks, the way each store writes them. See ARCHITECTURE.md, "Moving data
// between stores".
package storecopy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"svc/internal/store/postgres"
	"svc/internal/store/sqlite"
)

// Result is what a copy moved and what verifying it found.
type Result struct {
	From, To         string           // the endpoints, passwords redacted
	Tables           map[string]int64 // rows per table in the source snapshot
	LedgerTotalMicro int64            // sum of ledger.amount_micro in the source
	BalanceMicro     int64            // sum of the accounts' balances in the source
	ReservedMicro    int64            // sum of the accounts' reserved amounts in the source
	SchemaVersion    int64            // the source's newest migration
	Verified         bool
	Mismatches       []string // what differs between source and target, when not verified
	Duration         time.Duration
}

// Copy copies every record of from into to, which must be empty, and verifies the target's
// row counts and ledger totals against the source's.
func Copy(ctx context.Context, from, to Endpoint) (Result, error) {
	start := time.Now()
	res := Result{From: from.String(), To: to.String()}
	if sameStore(from, to) {
		return res, fmt.Errorf("%w: %s", ErrSame, from)
	}
	if err := checkSource(from); err != nil {
		return res, err
	}
	// A data directory that is the target must not be served while the rows move in: serve
	// would find a half-filled store (the transaction hides it, but serve's start-up writes
	// would then make the target non-empty for the copy's next try).
	if !to.Postgres() {
		release, err := sqlite.LockServe(to.Dir)
		if err != nil {
			return res, err
		}
		defer release()
	}
	if err := migrate(ctx, to); err != nil {
		return res, err
	}
	src, err := openSide(ctx, from, true)
	if err != nil {
		return res, fmt.Errorf("open source %s: %w", from, err)
	}
	defer src.db.Close()
	dst, err := openSide(ctx, to, false)
	if err != nil {
		return res, fmt.Errorf("open target %s: %w", to, err)
	}
	defer dst.db.Close()

	order, err := plan(src, dst)
	if err != nil {
		return res, err
	}
	// One snapshot of the source: SQLite's read transaction in WAL mode is one already;
	// PostgreSQL's needs REPEATABLE READ (READ COMMITTED sees each statement's own moment).
	var sopts *sql.TxOptions
	if src.pg() {
		sopts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	stx, err := src.db.BeginTx(ctx, sopts)
	if err != nil {
		return res, fmt.Errorf("read source: %w", redactErr(from, err))
	}
	defer func() { _ = stx.Rollback() }()
	if res.SchemaVersion, err = src.schemaVersion(ctx, stx); err != nil {
		return res, err
	}
	// The copy trusts the stores' schemas to mean the same at the same shape; a SQLite source
	// of another version is refused before anything moves (open it with this binary's `svc
	// serve` once, which migrates it). The PostgreSQL schema is numbered apart from SQLite's,
	// so there the column-by-column match of plan is the check.
	if !from.Postgres() {
		latest, err := sqlite.LatestSchemaVersion()
		if err != nil {
			return res, err
		}
		if res.SchemaVersion != latest {
			return res, fmt.Errorf("%w: the source is at schema version %d, this svc at %d; open it once with this version's svc serve (or use the matching svc)",
				ErrSchema, res.SchemaVersion, latest)
		}
	}
	srcTally, err := tally(ctx, stx, order)
	if err != nil {
		return res, fmt.Errorf("count source: %w", redactErr(from, err))
	}
	last, err := lastIDs(ctx, stx, src, order)
	if err != nil {
		return res, redactErr(from, err)
	}
	res.Tables, res.LedgerTotalMicro = srcTally.rows, srcTally.ledgerTotal
	res.BalanceMicro, res.ReservedMicro = srcTally.balance, srcTally.reserved

	dtx, err := dst.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("write target: %w", redactErr(to, err))
	}
	defer func() { _ = dtx.Rollback() }()
	if err := checkEmpty(ctx, dtx, order); err != nil {
		return res, err
	}
	for _, t := range order {
		if err := copyTable(ctx, stx, dtx, src.tables[t.name], t, dst.pg()); err != nil {
			return res, redactErr(to, redactErr(from, err))
		}
	}
	if err := rebuildDerived(ctx, dtx, dst); err != nil {
		return res, redactErr(to, err)
	}
	if err := setLastIDs(ctx, dtx, dst, order, last); err != nil {
		return res, redactErr(to, err)
	}
	if err := dtx.Commit(); err != nil {
		return res, fmt.Errorf("commit target: %w", redactErr(to, err))
	}
	_ = stx.Rollback()

	dstTally, err := tally(ctx, dst.db, order)
	if err != nil {
		return res, fmt.Errorf("count target: %w", redactErr(to, err))
	}
	res.Mismatches = srcTally.diff(dstTally)
	if extra, err := checkIndex(ctx, dst); err != nil {
		return res, redactErr(to, err)
	} else {
		res.Mismatches = append(res.Mismatches, extra...)
	}
	res.Verified = len(res.Mismatches) == 0
	res.Duration = time.Since(start)
	return res, nil
}

// migrate opens the target through its store's own Open, which applies this binary's
// migrations (and on SQLite builds the full-text table), then closes it again.
func migrate(ctx context.Context, e Endpoint) error {
	if e.Postgres() {
		st, err := postgres.Open(ctx, e.URL, postgres.Options{MaxConns: 2})
		if err != nil {
			return fmt.Errorf("open target %s: %w", e, redactErr(e, err))
		}
		return st.Close()
	}
	st, err := sqlite.Open(ctx, e.Dir, sqlite.Options{Readers: 1})
	if err != nil {
		return fmt.Errorf("open target %s: %w", e, err)
	}
	return st.Close()
}

// checkEmpty refuses a target that holds any row: copying into it would mix two
// installations' ids (and fail on the first one taken, or worse, not fail).
func checkEmpty(ctx context.Context, q querier, order []*table) error {
	for _, t := range order {
		var n int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+quote(t.name)).Scan(&n); err != nil {
			return fmt.Errorf("count %s: %w", t.name, err)
		}
		if n > 0 {
			return fmt.Errorf("%w: table %s holds %d rows; copy into a new data directory or an empty database", ErrNotEmpty, t.name, n)
		}
	}
	return nil
}

func quote(ident string) string { return `"` + strings.ReplaceAll(ident, `"`, `""`) + `"` }

// redactErr takes the endpoint's password out of an error's text: a driver may quote its
// connection string.
func redactErr(e Endpoint, err error) error {
	if err == nil || !e.Postgres() {
		return err
	}
	u, perr := url.Parse(e.URL)
	if perr != nil {
		return errors.New(strings.ReplaceAll(err.Error(), e.URL, RedactURL(e.URL)))
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" {
		pw = u.Query().Get("password")
	}
	msg := strings.ReplaceAll(err.Error(), e.URL, RedactURL(e.URL))
	if pw != "" {
		msg = strings.ReplaceAll(msg, pw, "xxxxx")
	}
	if msg == err.Error() {
		return err
	}
	return redacted{msg: msg, err: err}
}

// redacted keeps the wrapped error for errors.Is while printing the redacted text.
type redacted struct {
	msg string
	err error
}

func (r redacted) Error() string { return r.msg }
func (r redacted) Unwrap() error { return r.err }

package storecopy

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"svc/internal/store/sqlite"
)

// column is one column of a table with its declared type, lower-cased.
type column struct {
	name, typ string
}

// table is a table the copy moves: its columns in order, the tables its foreign keys name,
// and whether it has an identity column "id" (PostgreSQL sequences to reset).
type table struct {
	name     string
	cols     []column
	parents  []string
	identity bool
}

func (t *table) col(name string) (column, bool) {
	for _, c := range t.cols {
		if c.name == name {
			return c, true
		}
	}
	return column{}, false
}

// side is an open database of one endpoint, read through database/sql directly: the
// stores' own handles are private, and a copy needs generic SELECT and INSERT over every
// table, which no store method offers.
type side struct {
	ep     Endpoint
	db     *sql.DB
	tables map[string]*table
}

func (s *side) pg() bool { return s.ep.Postgres() }

// openSide opens the endpoint's database. A SQLite source is opened read-only, so that a
// copy never changes what it copies; a target gets one connection, whose transaction holds
// the whole copy.
func openSide(ctx context.Context, e Endpoint, readOnly bool) (*side, error) {
	var db *sql.DB
	var err error
	if e.Postgres() {
		db, err = sql.Open("pgx", e.URL)
	} else {
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "foreign_keys(1)")
		if readOnly {
			q.Add("_pragma", "query_only(1)")
			q.Set("mode", "ro")
		} else {
			q.Set("_txlock", "immediate")
		}
		db, err = sql.Open("sqlite", "file:"+filepath.Join(e.Dir, sqlite.FileName)+"?"+q.Encode())
	}
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(2)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, redactErr(e, err)
	}
	s := &side{ep: e, db: db}
	if err := s.loadSchema(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// loadSchema reads the tables, columns and foreign keys from the database's own catalog, so
// that a table or column a later migration adds is copied without a change here.
func (s *side) loadSchema(ctx context.Context) error {
	s.tables = map[string]*table{}
	if s.pg() {
		return s.loadPG(ctx)
	}
	return s.loadSQLite(ctx)
}

func (s *side) loadPG(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT table_name, column_name, data_type, is_identity
		FROM information_schema.columns c
		WHERE table_schema = current_schema() AND table_name <> 'goose_db_version'
			AND EXISTS (SELECT 1 FROM information_schema.tables t WHERE t.table_schema = c.table_schema
				AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')
		ORDER BY table_name, ordinal_position`)
	if err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var tn, cn, typ, ident string
		if err := rows.Scan(&tn, &cn, &typ, &ident); err != nil {
			return fmt.Errorf("read schema: %w", err)
		}
		t := s.tables[tn]
		if t == nil {
			t = &table{name: tn}
			s.tables[tn] = t
		}
		t.cols = append(t.cols, column{cn, strings.ToLower(typ)})
		if cn == "id" && ident == "YES" {
			t.identity = true
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	fks, err := s.db.QueryContext(ctx, `SELECT a.relname, b.relname FROM pg_constraint c
		JOIN pg_class a ON a.oid = c.conrelid JOIN pg_class b ON b.oid = c.confrelid
		JOIN pg_namespace n ON n.oid = c.connamespace
		WHERE c.contype = 'f' AND n.nspname = current_schema()`)
	if err != nil {
		return fmt.Errorf("read foreign keys: %w", err)
	}
	defer fks.Close()
	for fks.Next() {
		var child, parent string
		if err := fks.Scan(&child, &parent); err != nil {
			return fmt.Errorf("read foreign keys: %w", err)
		}
		if t := s.tables[child]; t != nil {
			t.parents = append(t.parents, parent)
		}
	}
	return fks.Err()
}

func (s *side) loadSQLite(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> 'goose_db_version'`)
	if err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	var names, virtual []string
	for rows.Next() {
		var name string
		var def sql.NullString
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return fmt.Errorf("read schema: %w", err)
		}
		if strings.HasPrefix(strings.ToUpper(def.String), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, name)
			continue
		}
		names = append(names, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	// A full-text table (chunks_fts) and its shadow tables (chunks_fts_data, ...) are an
	// index the target rebuilds from the chunks, never data to copy.
	isShadow := func(n string) bool {
		for _, v := range virtual {
			if strings.HasPrefix(n, v+"_") {
				return true
			}
		}
		return false
	}
	for _, n := range names {
		if isShadow(n) {
			continue
		}
		t := &table{name: n}
		cr, err := s.db.QueryContext(ctx, `SELECT name, type FROM pragma_table_info(?) ORDER BY cid`, n)
		if err != nil {
			return fmt.Errorf("read schema of %s: %w", n, err)
		}
		for cr.Next() {
			var c column
			if err := cr.Scan(&c.name, &c.typ); err != nil {
				cr.Close()
				return fmt.Errorf("read schema of %s: %w", n, err)
			}
			c.typ = strings.ToLower(c.typ)
			t.cols = append(t.cols, c)
		}
		cr.Close()
		fr, err := s.db.QueryContext(ctx, `SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)`, n)
		if err != nil {
			return fmt.Errorf("read foreign keys of %s: %w", n, err)
		}
		for fr.Next() {
			var p string
			if err := fr.Scan(&p); err != nil {
				fr.Close()
				return fmt.Errorf("read foreign keys of %s: %w", n, err)
			}
			t.parents = append(t.parents, p)
		}
		fr.Close()
		s.tables[n] = t
	}
	return nil
}

// schemaVersion is the newest migration applied to the database (goose's table, the same in
// both stores).
func (s *side) schemaVersion(ctx context.Context, q querier) (int64, error) {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version WHERE is_applied`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v.Int64, nil
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// derived are the target's columns the copy computes instead of copying: the PostgreSQL
// store's full-text lexemes and FTS5's row length (see postgres/fts.go and rank.go). They
// depend on the store, so a source that has them (PostgreSQL) is not trusted for them
// either, and a source without them (SQLite) is not missing anything.
var derived = map[string]map[string]bool{
	"chunks":   {"terms_tsv": true, "scope_tokens": true},
	"kb_stats": {"scope_tokens": true},
}

func isDerived(tbl, col string) bool { return derived[tbl][col] }

// plan matches the two schemas: every table and column of the target must come from the
// source and every source column must have a place in the target, apart from derived ones;
// otherwise the stores are of different versions of svc and records would be lost or made
// up. It returns the tables in foreign-key order, parents first.
func plan(src, dst *side) ([]*table, error) {
	var problems []string
	for name, t := range dst.tables {
		st := src.tables[name]
		if st == nil {
			problems = append(problems, "table "+name+" is missing in the source")
			continue
		}
		for _, c := range t.cols {
			if _, ok := st.col(c.name); !ok && !isDerived(name, c.name) {
				problems = append(problems, fmt.Sprintf("column %s.%s is missing in the source", name, c.name))
			}
		}
		for _, c := range st.cols {
			if _, ok := t.col(c.name); !ok && !isDerived(name, c.name) {
				problems = append(problems, fmt.Sprintf("column %s.%s is missing in the target", name, c.name))
			}
		}
	}
	for name := range src.tables {
		if dst.tables[name] == nil {
			problems = append(problems, "table "+name+" is missing in the target")
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, fmt.Errorf("%w: %s", ErrSchema, strings.Join(problems, "; "))
	}
	// Kahn's order over the target's foreign keys, names sorted for a stable order.
	names := make([]string, 0, len(dst.tables))
	for n := range dst.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	done := map[string]bool{}
	var order []*table
	for len(order) < len(names) {
		progress := false
		for _, n := range names {
			if done[n] {
				continue
			}
			ready := true
			for _, p := range dst.tables[n].parents {
				if p != n && !done[p] && dst.tables[p] != nil {
					ready = false
				}
			}
			if ready {
				done[n] = true
				order = append(order, dst.tables[n])
				progress = true
			}
		}
		if !progress {
			return nil, fmt.Errorf("%w: the foreign keys form a cycle", ErrSchema)
		}
	}
	return order, nil
}

package sqlite

import (
	"context"
	"slices"
	"strings"
	"svc/internal/store/sqlstore"
	"testing"
	"time"
)

// Every table that holds an account's rows must be emptied by DeleteAccount: a table added
// later with an account_id column, or a foreign key to accounts, fails here until it is in
// sqlstore.AccountTables (or its rows are deliberately kept, as the ledger's are).
func TestDeleteAccountKnowsEveryAccountTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTemp(t)
	kept := []string{"ledger", "ledger_archive", "deleted_accounts", "accounts"}
	rows, err := s.r.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
		AND name NOT LIKE 'chunks_fts%' AND name <> 'goose_db_version'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < len(sqlstore.AccountTables) {
		t.Fatalf("found only %d tables: %v", len(tables), tables)
	}
	for _, table := range tables {
		// A table is an account's if it has an account_id column or a foreign key to accounts.
		var owned bool
		for _, q := range []struct{ query, owner string }{
			{`SELECT name FROM pragma_table_info(?)`, "account_id"},
			{`SELECT "table" FROM pragma_foreign_key_list(?)`, "accounts"},
		} {
			rows, err := s.r.QueryContext(ctx, q.query, table)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name string
				if err := rows.Scan(&name); err != nil {
					t.Fatal(err)
				}
				owned = owned || name == q.owner
			}
			rows.Close()
		}
		if owned && !slices.Contains(sqlstore.AccountTables, table) && !slices.Contains(kept, table) {
			t.Errorf("table %s holds accounts' rows but DeleteAccount does not delete them (sqlstore.AccountTables)", table)
		}
	}
	for _, table := range sqlstore.AccountTables {
		if !slices.Contains(tables, table) {
			t.Errorf("sqlstore.AccountTables names %s, which does not exist", table)
		}
	}
}

// The retention sweep and a data request read their conversations from an index, not by
// scanning every conversation of every account.
func TestPrivacyQueriesUseTheirIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTemp(t)
	now := sqlstore.TS(time.Now())
	for _, c := range []struct {
		name, query, index string
		args               []any
	}{
		{"stale conversations", sqlstore.StaleConversationsQuery, "conversations_retention", []any{now, now, 500}},
		{"visitor conversations", sqlstore.VisitorConversationsQuery, "conversations_visitor",
			[]any{int64(1), "6f1c2a3e-1111-4a4a-8b8b-000000000001"}},
	} {
		rows, err := s.r.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.query, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, c.index) || strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("%s does not walk %s in order:\n%s", c.name, c.index, text)
		}
	}
}

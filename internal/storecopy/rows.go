package storecopy

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"svc/internal/store/postgres"
)

// maxParams bounds the placeholders of one INSERT: SQLite allows 32,766, PostgreSQL 65,535.
const maxParams = 30000

// batchRows is how many rows one INSERT carries at most: a few hundred rows a statement
// take the round trips (PostgreSQL) and statement overhead (both) out of the copy's time.
const batchRows = 500

// copyTable streams one table from the source snapshot into the target transaction in
// multi-row INSERTs, ids included, so every reference between records stays as it was.
func copyTable(ctx context.Context, stx, dtx querier, st, dt *table, pgTarget bool) error {
	var cols []column
	for _, c := range dt.cols {
		if !isDerived(dt.name, c.name) {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	// The PostgreSQL full-text column is written with each chunk, as the store writes it
	// (NOT NULL, no default): array_to_tsvector over the account's lexemes.
	tsv := pgTarget && dt.name == "chunks" && hasCol(dt, "terms_tsv")
	acctIdx, termsIdx := -1, -1
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quote(c.name)
		switch c.name {
		case "account_id":
			acctIdx = i
		case "terms":
			termsIdx = i
		}
	}
	if tsv && (acctIdx < 0 || termsIdx < 0) {
		return fmt.Errorf("copy chunks: account_id or terms is missing")
	}
	perRow := len(cols)
	insertCols := strings.Join(names, ", ")
	if tsv {
		perRow++
		insertCols += ", terms_tsv"
	}
	batch := min(batchRows, max(1, maxParams/perRow))

	order := ""
	if _, ok := st.col("id"); ok {
		order = " ORDER BY id" // ids ascending: the target's B-trees grow at their end
	}
	rows, err := stx.QueryContext(ctx, `SELECT `+strings.Join(names, ", ")+` FROM `+quote(st.name)+order)
	if err != nil {
		return fmt.Errorf("read %s: %w", st.name, err)
	}
	defer rows.Close()

	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	args := make([]any, 0, batch*perRow)
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		var b strings.Builder
		b.WriteString(`INSERT INTO ` + quote(dt.name) + ` (` + insertCols + `) VALUES `)
		p := 0
		for r := 0; r < n; r++ {
			if r > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for c := 0; c < perRow; c++ {
				if c > 0 {
					b.WriteString(", ")
				}
				p++
				ph := "?"
				if pgTarget {
					ph = "$" + strconv.Itoa(p)
				}
				if tsv && c == perRow-1 {
					ph = "array_to_tsvector(" + ph + "::text[])"
				}
				b.WriteString(ph)
			}
			b.WriteByte(')')
		}
		if _, err := dtx.ExecContext(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("write %s: %w", dt.name, err)
		}
		args, n = args[:0], 0
		return nil
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("read %s: %w", st.name, err)
		}
		for i, c := range cols {
			v, err := convert(vals[i], c.typ)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", dt.name, c.name, err)
			}
			args = append(args, v)
		}
		if tsv {
			acct, _ := args[len(args)-len(cols)+acctIdx].(int64)
			terms, _ := args[len(args)-len(cols)+termsIdx].(string)
			args = append(args, postgres.Lexemes(acct, terms))
		}
		if n++; n == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read %s: %w", st.name, err)
	}
	return flush()
}

func hasCol(t *table, name string) bool {
	_, ok := t.col(name)
	return ok
}

// kind is what a declared column type holds, in either store's spelling.
func kind(typ string) string {
	switch {
	case strings.Contains(typ, "int"):
		return "int"
	case strings.Contains(typ, "char"), strings.Contains(typ, "text"), strings.Contains(typ, "clob"):
		return "text"
	case strings.Contains(typ, "blob"), strings.Contains(typ, "bytea"):
		return "blob"
	case strings.Contains(typ, "bool"):
		return "bool"
	}
	return ""
}

// convert makes a value read from one driver fit the target column: the two drivers agree
// on int64, string and []byte for this schema, but SQLite stores what it is given, so a
// column may hold another type than it declares, and the target is strict (PostgreSQL) or
// gives a value the affinity of its declaration (SQLite) only for some types.
func convert(v any, typ string) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch kind(typ) {
	case "int":
		switch x := v.(type) {
		case int64:
			return x, nil
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		case float64:
			if x != math.Trunc(x) {
				return nil, fmt.Errorf("%v is not an integer", x)
			}
			return int64(x), nil
		case string:
			return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		case []byte:
			return strconv.ParseInt(strings.TrimSpace(string(x)), 10, 64)
		}
	case "text":
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		case int64:
			return strconv.FormatInt(x, 10), nil
		case float64:
			return strconv.FormatFloat(x, 'g', -1, 64), nil
		case time.Time:
			// The stores' own layout (store/sqlite's timeLayout), which orders as text.
			return x.UTC().Format("2006-01-02T15:04:05.000000Z"), nil
		}
	case "blob":
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	case "bool":
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	}
	return v, nil
}

// counts are what verifying a copy compares: rows per table and the money.
type counts struct {
	rows         map[string]int64
	ledgerTotal  int64
	archiveTotal int64
	balance      int64
	reserved     int64
	accounts     map[int64][3]int64 // per account: ledger sum, balance, reserved
}

// tally counts the rows of every table and sums the ledger, the archived ledger of deleted
// accounts, the balances and the reserved amounts, in total and per account.
func tally(ctx context.Context, q querier, order []*table) (counts, error) {
	c := counts{rows: map[string]int64{}, accounts: map[int64][3]int64{}}
	has := map[string]bool{}
	for _, t := range order {
		var n int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+quote(t.name)).Scan(&n); err != nil {
			return c, fmt.Errorf("count %s: %w", t.name, err)
		}
		c.rows[t.name] = n
		has[t.name] = true
	}
	if has["ledger"] {
		if err := q.QueryRowContext(ctx, `SELECT CAST(COALESCE(SUM(amount_micro), 0) AS BIGINT) FROM ledger`).Scan(&c.ledgerTotal); err != nil {
			return c, fmt.Errorf("sum ledger: %w", err)
		}
		rows, err := q.QueryContext(ctx, `SELECT account_id, CAST(SUM(amount_micro) AS BIGINT) FROM ledger GROUP BY account_id`)
		if err != nil {
			return c, fmt.Errorf("sum ledger: %w", err)
		}
		for rows.Next() {
			var id, sum int64
			if err := rows.Scan(&id, &sum); err != nil {
				rows.Close()
				return c, fmt.Errorf("sum ledger: %w", err)
			}
			a := c.accounts[id]
			a[0] = sum
			c.accounts[id] = a
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return c, fmt.Errorf("sum ledger: %w", err)
		}
	}
	if has["ledger_archive"] {
		if err := q.QueryRowContext(ctx, `SELECT CAST(COALESCE(SUM(amount_micro), 0) AS BIGINT) FROM ledger_archive`).Scan(&c.archiveTotal); err != nil {
			return c, fmt.Errorf("sum archived ledger: %w", err)
		}
	}
	if has["accounts"] {
		rows, err := q.QueryContext(ctx, `SELECT id, balance_micro, reserved_micro FROM accounts`)
		if err != nil {
			return c, fmt.Errorf("read balances: %w", err)
		}
		for rows.Next() {
			var id, bal, res int64
			if err := rows.Scan(&id, &bal, &res); err != nil {
				rows.Close()
				return c, fmt.Errorf("read balances: %w", err)
			}
			a := c.accounts[id]
			a[1], a[2] = bal, res
			c.accounts[id] = a
			c.balance += bal
			c.reserved += res
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return c, fmt.Errorf("read balances: %w", err)
		}
	}
	return c, nil
}

// diff lists how the target's counts differ from the source's (c).
func (c counts) diff(d counts) []string {
	var out []string
	for t, n := range c.rows {
		if d.rows[t] != n {
			out = append(out, fmt.Sprintf("%s: %d rows in the source, %d in the target", t, n, d.rows[t]))
		}
	}
	if c.ledgerTotal != d.ledgerTotal {
		out = append(out, fmt.Sprintf("ledger total: %d in the source, %d in the target", c.ledgerTotal, d.ledgerTotal))
	}
	if c.archiveTotal != d.archiveTotal {
		out = append(out, fmt.Sprintf("archived ledger total: %d in the source, %d in the target", c.archiveTotal, d.archiveTotal))
	}
	for id, a := range c.accounts {
		if b := d.accounts[id]; a != b {
			out = append(out, fmt.Sprintf("account %d: ledger, balance, reserved %v in the source, %v in the target", id, a, b))
		}
	}
	for id := range d.accounts {
		if _, ok := c.accounts[id]; !ok {
			out = append(out, fmt.Sprintf("account %d is in the target only", id))
		}
	}
	sort.Strings(out)
	return out
}

// checkIndex verifies the target's rebuilt full-text index covers every chunk: FTS5 has one
// row per chunk; PostgreSQL's column is NOT NULL, so the insert already saw to it.
func checkIndex(ctx context.Context, dst *side) ([]string, error) {
	if dst.pg() {
		return nil, nil
	}
	var chunks, indexed int64
	if err := dst.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM chunks), (SELECT COUNT(*) FROM chunks_fts)`).
		Scan(&chunks, &indexed); err != nil {
		return nil, fmt.Errorf("count the index: %w", err)
	}
	if chunks != indexed {
		return []string{fmt.Sprintf("chunks_fts: %d rows for %d chunks", indexed, chunks)}, nil
	}
	return nil, nil
}

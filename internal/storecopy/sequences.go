package storecopy

import (
	"context"
	"database/sql"
	"fmt"
)

// Ids are never reused in either store: SQLite's AUTOINCREMENT tables keep the highest id
// ever given in sqlite_sequence, PostgreSQL's identities a sequence. A deleted account's id
// stays in deleted_accounts and ledger_archive, so a new account must not get it on the
// copy either: the target's counters continue from the source's, not from the highest id
// left in the table.

// lastIDs reads the source's counter of every table with an id: the highest id it gave.
func lastIDs(ctx context.Context, q querier, src *side, order []*table) (map[string]int64, error) {
	out := map[string]int64{}
	for _, t := range order {
		st := src.tables[t.name]
		if st == nil || !hasCol(st, "id") {
			continue
		}
		var v sql.NullInt64
		var err error
		if src.pg() {
			if !st.identity {
				continue
			}
			// last_value with is_called: a sequence set with setval(..., false) (as a copy
			// leaves it) has not given last_value yet.
			var seq sql.NullString
			if err = q.QueryRowContext(ctx, `SELECT pg_get_serial_sequence($1, 'id')`, t.name).Scan(&seq); err == nil && seq.Valid {
				err = q.QueryRowContext(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM `+
					seq.String).Scan(&v)
			}
		} else {
			err = q.QueryRowContext(ctx, `SELECT MAX(seq) FROM sqlite_sequence WHERE name = ?`, t.name).Scan(&v)
		}
		if err != nil {
			return nil, fmt.Errorf("id counter of %s: %w", t.name, err)
		}
		out[t.name] = v.Int64
	}
	return out, nil
}

// setLastIDs moves the target's counters past both the copied ids and the source's counters.
func setLastIDs(ctx context.Context, q querier, dst *side, order []*table, last map[string]int64) error {
	for _, t := range order {
		if !hasCol(t, "id") {
			continue
		}
		if dst.pg() {
			if !t.identity {
				continue
			}
			if _, err := q.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'),
				GREATEST(COALESCE(MAX(id), 0), $2) + 1, false) FROM `+quote(t.name), t.name, last[t.name]); err != nil {
				return fmt.Errorf("id counter of %s: %w", t.name, err)
			}
			continue
		}
		if last[t.name] == 0 {
			continue // inserting the ids already moved the counter past them
		}
		var auto int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?
			AND upper(sql) LIKE '%AUTOINCREMENT%'`, t.name).Scan(&auto); err != nil {
			return fmt.Errorf("id counter of %s: %w", t.name, err)
		}
		if auto == 0 {
			continue // no counter: SQLite gives max(id)+1, on the source as well
		}
		res, err := q.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?`, last[t.name], t.name)
		if err != nil {
			return fmt.Errorf("id counter of %s: %w", t.name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := q.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`, t.name, last[t.name]); err != nil {
				return fmt.Errorf("id counter of %s: %w", t.name, err)
			}
		}
	}
	return nil
}

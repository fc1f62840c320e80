package storecopy

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/store/sqlite"
)

// The full-text indexes are the one place the two stores' records differ: each store keeps
// the analyzer's terms of a chunk (chunks.terms, copied as they are) in an index of its own
// shape. The target's index is rebuilt from the copied chunks with the tokens its store
// writes (sqlite.ScopedTerms and ScopeTokens, postgres.Lexemes), so a search on the copy
// reads the same terms as on the source.

// rebuildDerived fills what the target computes from the copied rows, in the copy's
// transaction: on PostgreSQL each chunk's scope_tokens (1, or 2 with a site: the length FTS5's
// bm25 counts beside the terms, see store/postgres/rank.go) and their sums in kb_stats (the
// lexemes went in with the chunks); on SQLite the FTS5 table, one row per chunk.
func rebuildDerived(ctx context.Context, q querier, dst *side) error {
	if dst.pg() {
		if c := dst.tables["chunks"]; c != nil && hasCol(c, "scope_tokens") {
			if _, err := q.ExecContext(ctx, `UPDATE chunks c SET scope_tokens =
				CASE WHEN COALESCE(d.site_id, 0) = 0 THEN 1 ELSE 2 END FROM documents d WHERE d.id = c.document_id`); err != nil {
				return fmt.Errorf("chunks' scope tokens: %w", err)
			}
		}
		if k := dst.tables["kb_stats"]; k != nil && hasCol(k, "scope_tokens") {
			if _, err := q.ExecContext(ctx, `UPDATE kb_stats k SET scope_tokens = COALESCE((SELECT SUM(c.scope_tokens)
				FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.account_id = k.account_id AND d.type = k.type), 0)`); err != nil {
				return fmt.Errorf("kb stats' scope tokens: %w", err)
			}
		}
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT c.id, c.account_id, c.terms, d.type, COALESCE(d.site_id, 0)
		FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY c.id`)
	if err != nil {
		return fmt.Errorf("index chunks: %w", err)
	}
	defer rows.Close()
	// Written in batches while the chunks are read, as the store's own rebuild does
	// (store/sqlite: rebuildIndex), so a large KB's terms are never all in memory.
	args := make([]any, 0, 3*batchRows)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		q1 := `INSERT INTO chunks_fts (rowid, terms, scope) VALUES (?, ?, ?)` +
			strings.Repeat(", (?, ?, ?)", len(args)/3-1)
		if _, err := q.ExecContext(ctx, q1, args...); err != nil {
			return fmt.Errorf("index chunks: %w", err)
		}
		args = args[:0]
		return nil
	}
	for rows.Next() {
		var id, acct, site int64
		var terms, typ string
		if err := rows.Scan(&id, &acct, &terms, &typ, &site); err != nil {
			return fmt.Errorf("index chunks: %w", err)
		}
		args = append(args, id, sqlite.ScopedTerms(acct, terms), sqlite.ScopeTokens(acct, typ, site))
		if len(args) == 3*batchRows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index chunks: %w", err)
	}
	if err := flush(); err != nil {
		return err
	}
	// One segment, as a store that merged as it went would have (store/sqlite: kbWritten):
	// a search seeks every segment once per term.
	if _, err := q.ExecContext(ctx, `INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')`); err != nil {
		return fmt.Errorf("optimize the index: %w", err)
	}
	return nil
}

package storecopy

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// The full-text indexes are the one place the two stores' records differ: each store keeps
// the analyzer's terms of a chunk (chunks.terms, copied as they are) in an index of its own
// shape. The target's index is rebuilt from the copied chunks with the very tokens its store
// writes, so a search on the copy reads the same terms as on the source. The functions below
// repeat a few lines of store/postgres/fts.go (lexemes) and store/sqlite/fts.go
// (scopedTerms, scopeTokens), which are private to those packages; the round-trip test
// (a search answering the same on every copy) is what keeps them in step.

// pgMaxLexeme is PostgreSQL's limit on one lexeme, in bytes (store/postgres: maxLexeme).
const pgMaxLexeme = 2047

// tokenPrefix is an account's prefix of its index tokens in both stores ("a17_").
func tokenPrefix(accountID int64) string { return "a" + strconv.FormatInt(accountID, 10) + "_" }

// lexemes are a chunk's terms as the PostgreSQL store's lexemes of its account; a term over
// the lexeme limit is left out, as the store leaves it out.
func lexemes(accountID int64, terms string) []string {
	p := tokenPrefix(accountID)
	fields := strings.Fields(terms)
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if len(p)+len(f) <= pgMaxLexeme {
			out = append(out, p+f)
		}
	}
	return out
}

// scopedTerms are a chunk's terms as the SQLite store's FTS5 tokens of its account.
func scopedTerms(accountID int64, terms string) string {
	fields := strings.Fields(terms)
	p := tokenPrefix(accountID)
	for i, f := range fields {
		fields[i] = p + f
	}
	return strings.Join(fields, " ")
}

// scopeTokens are a chunk's tokens in FTS5's scope column: its document's type and site.
func scopeTokens(accountID int64, docType string, siteID int64) string {
	p := tokenPrefix(accountID)
	s := p + "t" + docType
	if siteID != 0 {
		s += " " + p + "s" + strconv.FormatInt(siteID, 10)
	}
	return s
}

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
		args = append(args, id, scopedTerms(acct, terms), scopeTokens(acct, typ, site))
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

package postgres

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/store"
)

// The full-text index is chunks.terms_tsv: the analyzer's terms of each chunk as lexemes,
// taken verbatim (array_to_tsvector over the space-separated terms, no text search parser
// and no dictionary), with a GIN index. The SQLite store's FTS5 index holds the very same
// tokens, so both stores match a query term against the same set of chunks; the account is
// an indexed column here, not a token prefix. Ranking is BM25 computed in Go over the
// matching chunks (see SearchChunks), with FTS5's constants, so the candidates of a search
// are the ones the SQLite store picks.

// tsQuery turns analyzed terms into a tsquery text matching any of them (prefix terms as
// prefixes). Each lexeme is quoted, so no user text is ever read as tsquery syntax. It
// returns "" when no term is left.
func tsQuery(terms []store.SearchTerm) string {
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		if t.Text == "" {
			continue
		}
		q := "'" + strings.ReplaceAll(strings.ReplaceAll(t.Text, `\`, `\\`), "'", "''") + "'"
		if t.Prefix {
			q += ":*"
		}
		parts = append(parts, q)
	}
	return strings.Join(parts, " | ")
}

// addKBStats adds a change of an account's chunks of one document type to its running
// totals, which TermStats reads instead of counting the account's chunks on every question,
// and which tell a search narrowed to types the account has no chunk of that it need not
// read the index at all. They change in the same transaction as the chunks, so they are
// never stale; every change adds one to the row's version, which names the state of the
// account's chunks for the term counts TermStats remembers. The upsert is one statement,
// safe against a concurrent writer of the same row.
func addKBStats(ctx context.Context, tx *dbtx, accountID int64, docType string, chunks, terms, scope int) error {
	if chunks == 0 && terms == 0 && scope == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO kb_stats (account_id, type, chunks, terms, scope_tokens, version)
		VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (account_id, type) DO UPDATE SET chunks = kb_stats.chunks + excluded.chunks,
			terms = kb_stats.terms + excluded.terms, scope_tokens = kb_stats.scope_tokens + excluded.scope_tokens,
			version = kb_stats.version + 1`,
		accountID, docType, chunks, terms, scope); err != nil {
		return fmt.Errorf("kb stats: %w", err)
	}
	return nil
}

// kbWritten finishes a transaction that changed the account's documents: the cached answers
// they made stale are withdrawn. (GIN needs no merging step like FTS5's segments.)
func kbWritten(ctx context.Context, tx *dbtx, accountID int64, ch docChanges) error {
	return withdrawCache(ctx, tx, accountID, ch)
}

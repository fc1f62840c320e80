package postgres

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// The full-text index is chunks.terms_tsv: the analyzer's terms of each chunk as lexemes of
// its account ("a17_boot"), taken verbatim (array_to_tsvector: no text search parser, no
// dictionary), with a GIN index. The SQLite store's FTS5 index holds the very same tokens,
// so both stores match a query term against the same set of chunks, and a term's entry in
// either index lists one account's chunks only: a search reads the account's matches, not
// every tenant's (with verbatim terms and the account as a column, the planner read every
// chunk of the account and filtered them). Ranking is BM25 computed in Go over the matching
// chunks (rank.go), with FTS5's constants, so the candidates of a search are the ones the
// SQLite store picks.

// maxLexeme is PostgreSQL's limit on one lexeme (bytes); a longer term (a run of letters
// thousands long on a crawled page) is left out of the index rather than failing the import.
// SQLite indexes it, but no query term of a person's question is that long.
const maxLexeme = 2047

// Lexemes are a chunk's space-separated terms as the account's lexemes.
func Lexemes(accountID int64, terms string) []string {
	p := sqlstore.TokenPrefix(accountID)
	fields := strings.Fields(terms)
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if len(p)+len(f) <= maxLexeme {
			out = append(out, p+f)
		}
	}
	return out
}

// tsQuery turns analyzed terms into a tsquery text matching any of them as the account's
// lexemes (prefix terms as prefixes). Each lexeme is quoted, so no user text is ever read as
// tsquery syntax. A term over the lexeme limit is dropped: nothing indexed can match it, and
// PostgreSQL would refuse the query. It returns "" when no term is left.
func tsQuery(accountID int64, terms []store.SearchTerm) string {
	p := sqlstore.TokenPrefix(accountID)
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		if t.Text == "" || len(p)+len(t.Text) > maxLexeme {
			continue
		}
		q := "'" + strings.ReplaceAll(strings.ReplaceAll(p+t.Text, `\`, `\\`), "'", "''") + "'"
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

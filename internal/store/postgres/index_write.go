package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// The knowledge base's index is the chunks' terms_tsv column (GIN), written with the
// chunk: these are the dialect's hooks of the shared KB write path.

// DeleteChunks deletes a document's chunks, their index entries and their statistics.
func (dialect) DeleteChunks(ctx context.Context, tx *dbtx, docID int64) error {
	var acct sql.NullInt64
	var typ sql.NullString
	var n, terms, scope int
	if err := tx.QueryRowContext(ctx, `SELECT MAX(c.account_id), MAX(d.type), COUNT(*), COALESCE(SUM(c.term_count), 0),
		COALESCE(SUM(c.scope_tokens), 0) FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ?`,
		docID).Scan(&acct, &typ, &n, &terms, &scope); err != nil {
		return fmt.Errorf("delete chunks: %w", err)
	}
	if n == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chunks WHERE document_id = ?`, docID); err != nil {
		return fmt.Errorf("delete chunks: %w", err)
	}
	return addKBStats(ctx, tx, acct.Int64, typ.String, -n, -terms, -scope)
}

// InsertChunks inserts d's chunks, indexes them and counts them in the statistics.
func (dialect) InsertChunks(ctx context.Context, tx *dbtx, accountID int64, d *store.Document) error {
	total, scope := 0, 1 // scope: the chunk's type, and its site when it has one (see rank.go)
	if d.SiteID != 0 {
		scope++
	}
	for i := range d.Chunks {
		c := &d.Chunks[i]
		c.Ord = i
		n := len(strings.Fields(c.Terms))
		total += n
		err := tx.QueryRowContext(ctx, `INSERT INTO chunks (account_id, document_id, ord, heading, text, terms, term_count,
			tokens, scope_tokens, terms_tsv) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, array_to_tsvector(?::text[])) RETURNING id`,
			accountID, d.ID, c.Ord, c.Heading, c.Text, c.Terms, n, c.Tokens, scope, Lexemes(accountID, c.Terms)).Scan(&c.ID)
		if err != nil {
			return fmt.Errorf("insert chunk: %w", err)
		}
	}
	return addKBStats(ctx, tx, accountID, d.Type, len(d.Chunks), total, len(d.Chunks)*scope)
}

// IndexWritten does nothing: GIN needs no merging step like FTS5's segments.
func (dialect) IndexWritten(context.Context, *dbtx) error { return nil }

// DeleteAccountIndex does nothing: the index is a column of chunks, deleted with them.
func (dialect) DeleteAccountIndex(context.Context, *dbtx, int64) error { return nil }

// LikeASCIIFold is ILIKE: PostgreSQL's LIKE minds case.
func (dialect) LikeASCIIFold() string { return "ILIKE" }

// TermCondition reads the term's GIN entries.
func (dialect) TermCondition(accountID int64, t store.SearchTerm) (string, []any, bool) {
	expr := tsQuery(accountID, []store.SearchTerm{t})
	if expr == "" {
		if t.Text != "" {
			return "FALSE", nil, true // over the lexeme limit: no entry holds it
		}
		return "", nil, false
	}
	return `d.id IN (SELECT c.document_id FROM chunks c WHERE c.account_id = ? AND c.terms_tsv @@ ?::tsquery)`,
		[]any{accountID, expr}, true
}

// TermExpr is the term's tsquery (see tsQuery).
func (dialect) TermExpr(accountID int64, t store.SearchTerm) string {
	return tsQuery(accountID, []store.SearchTerm{t})
}

// CountTerm counts the term's matching chunks of the account (GIN).
func (dialect) CountTerm(ctx context.Context, r *sqlstore.Pool, accountID int64, expr string) (int, error) {
	var n int
	err := r.QueryRowContext(ctx, `SELECT COUNT(*) FROM chunks WHERE account_id = ? AND terms_tsv @@ ?::tsquery`,
		accountID, expr).Scan(&n)
	return n, err
}

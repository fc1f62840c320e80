package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// The knowledge base's index is FTS5's chunks_fts, whose rows the store writes beside
// the chunks': these are the dialect's hooks of the shared KB write path.

// DeleteChunks deletes a document's chunks, their index entries and their statistics.
func (dialect) DeleteChunks(ctx context.Context, tx *dbtx, docID int64) error {
	var acct sql.NullInt64
	var typ sql.NullString
	var n, terms int
	if err := tx.QueryRowContext(ctx, `SELECT MAX(c.account_id), MAX(d.type), COUNT(*), COALESCE(SUM(c.term_count), 0)
		FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ?`, docID).Scan(&acct, &typ, &n,
		&terms); err != nil {
		return fmt.Errorf("delete chunks: %w", err)
	}
	if n == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE document_id = ?)`, docID); err != nil {
		return fmt.Errorf("delete chunk index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chunks WHERE document_id = ?`, docID); err != nil {
		return fmt.Errorf("delete chunks: %w", err)
	}
	return addKBStats(ctx, tx, acct.Int64, typ.String, -n, -terms)
}

// InsertChunks inserts d's chunks, indexes them and counts them in the statistics.
func (dialect) InsertChunks(ctx context.Context, tx *dbtx, accountID int64, d *store.Document) error {
	total := 0
	for i := range d.Chunks {
		c := &d.Chunks[i]
		c.Ord = i
		n := len(strings.Fields(c.Terms))
		total += n
		err := tx.QueryRowContext(ctx, `INSERT INTO chunks (account_id, document_id, ord, heading, text, terms, term_count,
			tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, accountID, d.ID, c.Ord, c.Heading, c.Text, c.Terms, n,
			c.Tokens).Scan(&c.ID)
		if err != nil {
			return fmt.Errorf("insert chunk: %w", err)
		}
		if err := indexChunk(ctx, tx, accountID, d, c); err != nil {
			return err
		}
	}
	return addKBStats(ctx, tx, accountID, d.Type, len(d.Chunks), total)
}

// IndexWritten merges a bounded step of the full-text index's segments after a write.
//
// A write transaction leaves one or more segments in the index (a large one flushes several),
// and a search seeks every segment once per query term. FTS5 merges on its own only in
// proportion to the pages a write adds, and only four segments of one level at a time, so a
// KB built in a few imports kept a dozen or more: the benchmark's KB of 1,000 chunks had
// sixteen, a third of a new answer's time. With usermerge 2 (migration 15) each step merges
// any two segments of one level, so the index keeps about one segment a level, and the work
// is spread over the writes that caused it.
func (dialect) IndexWritten(ctx context.Context, tx *dbtx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('merge', `+
		strconv.Itoa(mergePages)+`)`); err != nil {
		return fmt.Errorf("merge index: %w", err)
	}
	return nil
}

// DeleteAccountIndex deletes the account's full-text rows, which carry the account in their
// tokens, not in an account_id column.
func (dialect) DeleteAccountIndex(ctx context.Context, tx *dbtx, accountID int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE account_id = ?)`,
		accountID); err != nil {
		return fmt.Errorf("delete chunk index: %w", err)
	}
	return nil
}

// LikeASCIIFold is LIKE, which ignores the case of ASCII letters.
func (dialect) LikeASCIIFold() string { return "LIKE" }

// TermCondition reads the account's list of the term in the FTS index.
func (dialect) TermCondition(accountID int64, t store.SearchTerm) (string, []any, bool) {
	expr := matchExpr(accountID, []store.SearchTerm{t}, nil, 0)
	if expr == "" {
		return "", nil, false
	}
	return `d.id IN (SELECT c.document_id FROM chunks c WHERE c.account_id = ? AND c.id IN
			(SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? || ''))`, []any{accountID, expr}, true
}

// TermExpr is the term's MATCH expression (see matchExpr).
func (dialect) TermExpr(accountID int64, t store.SearchTerm) string {
	return matchExpr(accountID, []store.SearchTerm{t}, nil, 0)
}

// CountTerm reads the term's list of the account in the index: the account is in the
// expression's tokens.
func (dialect) CountTerm(ctx context.Context, r *sqlstore.Pool, _ int64, expr string) (int, error) {
	var n int
	err := r.QueryRowContext(ctx, `SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ? || ''`, expr).Scan(&n)
	return n, err
}

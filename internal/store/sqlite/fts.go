package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// The full-text index holds every term of a chunk as a token of its account
// ("a17_boot"), and a scope column with the chunk's type and site as tokens of its account
// ("a17_tproduct", "a17_s3").
//
// Scoping every token to its account keeps what a search reads to that account's share of
// the index: a query is only "a17_boot" OR "a17_ship", so FTS5 reads the two terms' lists
// of this account and nothing else. The earlier index held bare terms and one tenant token
// per row, ANDed into every query; FTS5's bm25 then counted every row of the tenant token
// (it counts each phrase of the query across the table), so every search and every term
// count read the whole account, and a search's time grew with the KB. The scope column
// narrows a search to Q&A entries or products (the curated-answer check, the product
// lookups) or to one site at the cost of reading that subset's list, not the account's.
//
// The tokenizer keeps '_' inside tokens and treats combining marks as letters, as the
// analyzer does, so a term is one token; its terms are already folded and stemmed in Go.
const ftsSchema = `CREATE VIRTUAL TABLE chunks_fts USING fts5 (
    terms,
    scope,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_' categories 'L* N* Co M*'"
)`

// ScopedTerms turns a chunk's space-separated terms into the account's tokens.
func ScopedTerms(accountID int64, terms string) string {
	fields := strings.Fields(terms)
	if len(fields) == 0 {
		return ""
	}
	p := sqlstore.TokenPrefix(accountID)
	var b strings.Builder
	b.Grow(len(terms) + len(fields)*len(p))
	for i, t := range fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p)
		b.WriteString(t)
	}
	return b.String()
}

// ScopeTokens are a chunk's tokens in the scope column: its document's type and site.
func ScopeTokens(accountID int64, docType string, siteID int64) string {
	p := sqlstore.TokenPrefix(accountID)
	s := p + "t" + docType
	if siteID != 0 {
		s += " " + p + "s" + strconv.FormatInt(siteID, 10)
	}
	return s
}

// matchExpr turns analyzed terms into an FTS5 query of one account's chunks, narrowed to
// the given document types and site when set: any of the terms (prefix terms use *). Terms
// are quoted so that no user text is ever read as FTS5 syntax. It returns "" when no term
// is left.
func matchExpr(accountID int64, terms []store.SearchTerm, types []string, siteID int64) string {
	p := sqlstore.TokenPrefix(accountID)
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		if t.Text == "" {
			continue
		}
		q := `"` + p + strings.ReplaceAll(t.Text, `"`, `""`) + `"`
		if t.Prefix {
			q += "*"
		}
		parts = append(parts, q)
	}
	if len(parts) == 0 {
		return ""
	}
	expr := `terms : (` + strings.Join(parts, " OR ") + `)`
	if len(types) > 0 {
		ts := make([]string, len(types))
		for i, t := range types {
			ts[i] = `"` + p + "t" + strings.ReplaceAll(t, `"`, `""`) + `"`
		}
		expr += ` AND scope : (` + strings.Join(ts, " OR ") + `)`
	}
	if siteID != 0 {
		expr += ` AND scope : "` + p + "s" + strconv.FormatInt(siteID, 10) + `"`
	}
	return expr
}

// indexChunk adds one chunk of a document to the index.
func indexChunk(ctx context.Context, tx *dbtx, accountID int64, d *store.Document, c *store.Chunk) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO chunks_fts (rowid, terms, scope) VALUES (?, ?, ?)`,
		c.ID, ScopedTerms(accountID, c.Terms), ScopeTokens(accountID, d.Type, d.SiteID)); err != nil {
		return fmt.Errorf("index chunk: %w", err)
	}
	return nil
}

// addKBStats adds a change of an account's chunks of one document type to its running
// totals, which TermStats reads instead of counting the account's chunks on every question,
// and which tell a search narrowed to types the account has no chunk of (a KB without Q&A
// entries or products) that it need not read the index at all. They change in the same
// transaction as the chunks, so they are never stale; every change adds one to the row's
// version, which names the state of the account's chunks for the term counts TermStats
// remembers.
func addKBStats(ctx context.Context, tx *dbtx, accountID int64, docType string, chunks, terms int) error {
	if chunks == 0 && terms == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO kb_stats (account_id, type, chunks, terms, version) VALUES (?, ?, ?, ?, 1)
		ON CONFLICT (account_id, type) DO UPDATE SET chunks = chunks + excluded.chunks, terms = terms + excluded.terms,
			version = version + 1`,
		accountID, docType, chunks, terms); err != nil {
		return fmt.Errorf("kb stats: %w", err)
	}
	return nil
}

// migration12 rebuilds the full-text index in the account-scoped form above and fills the
// running totals of TermStats. Go, because the scoped tokens are built by ScopedTerms.
var migration12 = goose.NewGoMigration(12,
	&goose.GoFunc{RunTx: rebuildIndex},
	&goose.GoFunc{RunTx: restoreTenantIndex},
)

// restoreTenantIndex is migration 12's down step: the index of migration 1 (bare terms and
// a tenant token per row), rebuilt from the chunks.
func restoreTenantIndex(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`DROP TABLE kb_stats`,
		`DROP TABLE chunks_fts`,
		`CREATE VIRTUAL TABLE chunks_fts USING fts5 (terms, tenant, tokenize = 'unicode61 remove_diacritics 0',
			prefix = '2 3 4 5')`,
		`INSERT INTO chunks_fts (rowid, terms, tenant) SELECT id, terms, 'a' || account_id FROM chunks`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("restore index: %w", err)
		}
	}
	return nil
}

func rebuildIndex(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`DROP TABLE chunks_fts`,
		ftsSchema,
		`CREATE TABLE kb_stats (
			account_id INTEGER NOT NULL REFERENCES accounts (id),
			type       TEXT    NOT NULL,
			chunks     INTEGER NOT NULL DEFAULT 0,
			terms      INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (account_id, type)
		) WITHOUT ROWID`,
		`INSERT INTO kb_stats (account_id, type, chunks, terms)
			SELECT c.account_id, d.type, COUNT(*), SUM(c.term_count) FROM chunks c JOIN documents d ON d.id = c.document_id
			GROUP BY c.account_id, d.type`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild index: %w", err)
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT c.id, c.account_id, c.terms, d.type, COALESCE(d.site_id, 0)
		FROM chunks c JOIN documents d ON d.id = c.document_id`)
	if err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	defer rows.Close()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO chunks_fts (rowid, terms, scope) VALUES (?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	defer ins.Close()
	for rows.Next() {
		var id, acct, site int64
		var terms, typ string
		if err := rows.Scan(&id, &acct, &terms, &typ, &site); err != nil {
			return fmt.Errorf("rebuild index: %w", err)
		}
		if _, err := ins.ExecContext(ctx, id, ScopedTerms(acct, terms), ScopeTokens(acct, typ, site)); err != nil {
			return fmt.Errorf("rebuild index: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	return nil
}

// mergePages bounds the index merging one KB write does (FTS5 leaf pages, about 4 KiB each):
// a few milliseconds, so that a crawl's page or a dashboard edit stays cheap.
const mergePages = 256

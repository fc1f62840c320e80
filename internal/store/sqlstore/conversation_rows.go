package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"svc/internal/store"
)

// Queryer is a Pool or a Tx.
type Queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *Row
}

// ConversationByScope reads the account's conversation of a scope (the API's or a visitor's)
// and when its visitor was last seen.
func ConversationByScope(ctx context.Context, q Queryer, accountID int64, scope string) (store.Conversation, time.Time, error) {
	var c store.Conversation
	var seen string
	err := scanConversation(q.QueryRowContext(ctx, `SELECT `+conversationColumns+`, c.last_seen_at
		FROM conversations c WHERE c.account_id = ? AND c.scope = ?`, accountID, scope), &c, &seen)
	if err != nil {
		return c, time.Time{}, NotFound(err, "get conversation")
	}
	return c, ParseTS(seen), nil
}

const conversationColumns = `c.id, c.account_id, COALESCE(c.embed_token_id, 0), c.visitor, c.lang, c.summary,
	c.summarized_through, c.created_at, c.updated_at`

// scanConversation reads one row of conversationColumns into c, then the row's further
// columns into extra.
func scanConversation(row interface{ Scan(...any) error }, c *store.Conversation, extra ...any) error {
	var created, updated string
	dest := append([]any{&c.ID, &c.AccountID, &c.EmbedTokenID, &c.Visitor, &c.Lang, &c.Summary, &c.SummarizedThrough,
		&created, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return err
	}
	c.CreatedAt, c.UpdatedAt = ParseTS(created), ParseTS(updated)
	return nil
}

const MessageColumns = `id, conversation_id, account_id, role, body, source, lang, low_confidence, products, doc_ids,
	sources, via, created_at`

// scanMessage reads one row of MessageColumns into m, then the row's further columns into
// extra.
func scanMessage(row interface{ Scan(...any) error }, m *store.Message, extra ...any) error {
	var low int
	var products, docIDs, sources, created string
	dest := append([]any{&m.ID, &m.ConversationID, &m.AccountID, &m.Role, &m.Body, &m.Source, &m.Lang, &low,
		&products, &docIDs, &sources, &m.Via, &created}, extra...)
	if err := row.Scan(dest...); err != nil {
		return fmt.Errorf("scan message: %w", err)
	}
	m.LowConfidence = low != 0
	m.CreatedAt = ParseTS(created)
	if products != "" {
		if err := json.Unmarshal([]byte(products), &m.Products); err != nil {
			return fmt.Errorf("message %d products: %w", m.ID, err)
		}
	}
	m.DocIDs = ParseIDs(docIDs)
	src, err := ParseSources(sources)
	if err != nil {
		return fmt.Errorf("message %d sources: %w", m.ID, err)
	}
	m.Sources = src
	return nil
}

// FormatSources is the stored form of a reply's sources: a JSON array, or "" for none (the
// column's default, which rows written before sources were kept also hold).
func FormatSources(src []store.Source) (string, error) {
	if len(src) == 0 {
		return "", nil
	}
	b, err := json.Marshal(src)
	if err != nil {
		return "", fmt.Errorf("encode sources: %w", err)
	}
	return string(b), nil
}

// ParseSources reads FormatSources' form back; none is an empty, non-nil list.
func ParseSources(v string) ([]store.Source, error) {
	out := []store.Source{}
	if v == "" {
		return out, nil
	}
	if err := json.Unmarshal([]byte(v), &out); err != nil {
		return []store.Source{}, err
	}
	return out, nil
}

func ScanMessages(rows *sql.Rows) ([]store.Message, error) {
	defer rows.Close()
	out := []store.Message{}
	for rows.Next() {
		var m store.Message
		if err := scanMessage(rows, &m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func ScanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func FormatIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

func ParseIDs(v string) []int64 {
	if v == "" {
		return nil
	}
	var out []int64
	for _, p := range strings.Split(v, ",") {
		if id, err := strconv.ParseInt(p, 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

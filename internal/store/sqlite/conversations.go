package sqlite

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

// apiScope names the account's one rolling API conversation; widget visitors get other scopes.
const apiScope = "api"

// OpenConversation returns the account's conversation, creating it on first use.
func (s *Store) OpenConversation(ctx context.Context, accountID int64, lang string) (store.Conversation, error) {
	c, err := s.getConversation(ctx, s.r, accountID)
	if err == nil {
		return c, nil
	}
	now := s.now().UTC()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO conversations (account_id, scope, lang, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, scope) DO NOTHING`, accountID, apiScope, lang, ts(now), ts(now))
		if err != nil {
			return fmt.Errorf("create conversation: %w", err)
		}
		c, err = s.getConversation(ctx, tx, accountID)
		return err
	})
	return c, err
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) getConversation(ctx context.Context, q queryer, accountID int64) (store.Conversation, error) {
	var c store.Conversation
	var created, updated string
	err := q.QueryRowContext(ctx, `SELECT id, account_id, lang, summary, created_at, updated_at FROM conversations
		WHERE account_id = ? AND scope = ?`, accountID, apiScope).Scan(&c.ID, &c.AccountID, &c.Lang, &c.Summary, &created, &updated)
	if err != nil {
		return c, notFound(err, "get conversation")
	}
	c.CreatedAt, c.UpdatedAt = parseTS(created), parseTS(updated)
	return c, nil
}

const messageColumns = `id, conversation_id, account_id, role, body, source, lang, low_confidence, products, doc_ids, created_at`

func scanMessages(rows *sql.Rows) ([]store.Message, error) {
	defer rows.Close()
	out := []store.Message{}
	for rows.Next() {
		var m store.Message
		var low int
		var products, docIDs, created string
		if err := rows.Scan(&m.ID, &m.ConversationID, &m.AccountID, &m.Role, &m.Body, &m.Source, &m.Lang, &low,
			&products, &docIDs, &created); err != nil {
			return nil, fmt.Errorf("scan message: %w", err)
		}
		m.LowConfidence = low != 0
		m.CreatedAt = parseTS(created)
		if products != "" {
			if err := json.Unmarshal([]byte(products), &m.Products); err != nil {
				return nil, fmt.Errorf("message %d products: %w", m.ID, err)
			}
		}
		m.DocIDs = parseIDs(docIDs)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Messages returns messages after sinceID, oldest first.
func (s *Store) Messages(ctx context.Context, accountID, conversationID, sinceID int64, limit int) ([]store.Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+messageColumns+` FROM messages
		WHERE account_id = ? AND conversation_id = ? AND id > ? ORDER BY id LIMIT ?`,
		accountID, conversationID, sinceID, limit)
	if err != nil {
		return nil, fmt.Errorf("messages: %w", err)
	}
	return scanMessages(rows)
}

// LastMessages returns the newest messages, oldest first.
func (s *Store) LastMessages(ctx context.Context, accountID, conversationID int64, limit int) ([]store.Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+messageColumns+` FROM (SELECT `+messageColumns+` FROM messages
		WHERE account_id = ? AND conversation_id = ? ORDER BY id DESC LIMIT ?) AS last ORDER BY id`,
		accountID, conversationID, limit)
	if err != nil {
		return nil, fmt.Errorf("last messages: %w", err)
	}
	return scanMessages(rows)
}

// SaveTurn commits a question, its reply and everything that depends on the reply in one
// transaction. The balance only moves through a conditional UPDATE, so concurrent turns can
// never take it below zero; the quota is re-counted inside the transaction for the same reason.
func (s *Store) SaveTurn(ctx context.Context, t *store.Turn) error {
	now := s.now().UTC()
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if t.Charge.EventType == store.EventAnswer && t.QuotaLimit > 0 {
			var used int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM usage_events WHERE account_id = ?
				AND event_type = ? AND created_at >= ?`, t.AccountID, store.EventAnswer, ts(t.QuotaSince)).Scan(&used); err != nil {
				return fmt.Errorf("count quota: %w", err)
			}
			if used >= t.QuotaLimit {
				return store.ErrQuotaReached
			}
		}
		var balance int64
		if t.Charge.AmountMicro > 0 {
			err := tx.QueryRowContext(ctx, `UPDATE accounts SET balance_micro = balance_micro - ?
				WHERE id = ? AND balance_micro >= ? RETURNING balance_micro`,
				t.Charge.AmountMicro, t.AccountID, t.Charge.AmountMicro).Scan(&balance)
			if err == sql.ErrNoRows {
				return store.ErrInsufficientBalance
			}
			if err != nil {
				return fmt.Errorf("charge: %w", err)
			}
		}
		for _, m := range []*store.Message{&t.User, &t.Reply} {
			m.AccountID, m.ConversationID, m.CreatedAt = t.AccountID, t.ConversationID, now
			if err := insertMessage(ctx, tx, m); err != nil {
				return err
			}
		}
		if t.Charge.AmountMicro > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (account_id, kind, amount_micro, balance_after, message_id, note, created_at)
				VALUES (?, 'charge', ?, ?, ?, ?, ?)`, t.AccountID, -t.Charge.AmountMicro, balance, t.Reply.ID,
				t.Charge.EventType, ts(now)); err != nil {
				return fmt.Errorf("insert ledger: %w", err)
			}
		}
		if t.Charge.EventType != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO usage_events (account_id, event_type, cost_micro, input_tokens,
				output_tokens, message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, t.AccountID, t.Charge.EventType,
				t.Charge.AmountMicro, t.Charge.InputTokens, t.Charge.OutputTokens, t.Reply.ID, ts(now)); err != nil {
				return fmt.Errorf("insert usage: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET lang = ?, updated_at = ? WHERE id = ? AND account_id = ?`,
			t.Lang, ts(now), t.ConversationID, t.AccountID); err != nil {
			return fmt.Errorf("update conversation: %w", err)
		}
		if c := t.Cache; c != nil {
			c.AccountID, c.MessageID, c.CreatedAt = t.AccountID, t.Reply.ID, now
			err := tx.QueryRowContext(ctx, `INSERT INTO answer_cache (account_id, lang, qkey, question, answer, doc_ids,
				message_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (account_id, lang, qkey) DO UPDATE SET question = excluded.question, answer = excluded.answer,
				doc_ids = excluded.doc_ids, message_id = excluded.message_id, created_at = excluded.created_at
				RETURNING id`, c.AccountID, c.Lang, c.Key, c.Question, c.Answer, formatIDs(c.DocIDs), c.MessageID,
				ts(now)).Scan(&c.ID)
			if err != nil {
				return fmt.Errorf("store cache: %w", err)
			}
		}
		if t.CacheHitID != 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE answer_cache SET hits = hits + 1 WHERE id = ? AND account_id = ?`,
				t.CacheHitID, t.AccountID); err != nil {
				return fmt.Errorf("count cache hit: %w", err)
			}
		}
		for _, id := range t.Reply.DocIDs {
			if _, err := tx.ExecContext(ctx, `UPDATE articles SET view_count = view_count + 1
				WHERE document_id = ? AND account_id = ?`, id, t.AccountID); err != nil {
				return fmt.Errorf("count article view: %w", err)
			}
		}
		return nil
	})
}

func insertMessage(ctx context.Context, tx *sql.Tx, m *store.Message) error {
	products := ""
	if len(m.Products) > 0 {
		b, err := json.Marshal(m.Products)
		if err != nil {
			return fmt.Errorf("encode products: %w", err)
		}
		products = string(b)
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO messages (conversation_id, account_id, role, body, source, lang,
		low_confidence, products, doc_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		m.ConversationID, m.AccountID, m.Role, m.Body, m.Source, m.Lang, boolInt(m.LowConfidence), products,
		formatIDs(m.DocIDs), ts(m.CreatedAt)).Scan(&m.ID)
	if err != nil {
		return fmt.Errorf("insert message: %w", err)
	}
	return nil
}

// CachedAnswer looks up the account's cached answer for a normalised question.
func (s *Store) CachedAnswer(ctx context.Context, accountID int64, lang, key string) (store.CacheEntry, error) {
	var c store.CacheEntry
	var docIDs, created string
	err := s.r.QueryRowContext(ctx, `SELECT id, account_id, lang, qkey, question, answer, doc_ids,
		COALESCE(message_id, 0), hits, created_at FROM answer_cache WHERE account_id = ? AND lang = ? AND qkey = ?`,
		accountID, lang, key).Scan(&c.ID, &c.AccountID, &c.Lang, &c.Key, &c.Question, &c.Answer, &docIDs,
		&c.MessageID, &c.Hits, &created)
	if err != nil {
		return c, notFound(err, "cached answer")
	}
	c.DocIDs, c.CreatedAt = parseIDs(docIDs), parseTS(created)
	return c, nil
}

// CountEvents counts usage events of one type since a time.
func (s *Store) CountEvents(ctx context.Context, accountID int64, eventType string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM usage_events WHERE account_id = ? AND event_type = ?
		AND created_at >= ?`, accountID, eventType, ts(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count events: %w", err)
	}
	return n, nil
}

// TopQuestions returns the account's most asked cached questions in lang.
func (s *Store) TopQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT question FROM answer_cache WHERE account_id = ? AND lang = ? AND hits > 0
		ORDER BY hits DESC, id LIMIT ?`, accountID, lang, limit)
	if err != nil {
		return nil, fmt.Errorf("top questions: %w", err)
	}
	return scanStrings(rows)
}

func scanStrings(rows *sql.Rows) ([]string, error) {
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

func formatIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

func parseIDs(v string) []int64 {
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

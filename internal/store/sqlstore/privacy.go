package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// Visitor conversations are deleted whole: the conversation, its messages, the feedback on
// them, the review items they are (fallback_questions) and the cached answers made from them
// (an entry keeps the visitor's question verbatim). Usage events and ledger rows stay: they
// hold no text, the ledger must keep summing to the balance, and the daily totals, which
// the overview and billing pages read, keep counting what happened. Their message_id then
// names a deleted message; ids are never reused (AUTOINCREMENT).

// The retention sweep's and a data request's conversations, each read from its own index
// (conversations_retention, conversations_visitor; migration 11). Both times are compared as
// text (fixed-width UTC); a conversation without messages has an empty last_message_at and is
// judged by its visitor's last visit alone.
const (
	StaleConversationsQuery = `SELECT id FROM conversations WHERE embed_token_id IS NOT NULL
		AND last_message_at < ? AND last_seen_at < ? ORDER BY last_message_at, last_seen_at LIMIT ?`
	VisitorConversationsQuery = `SELECT id FROM conversations WHERE account_id = ? AND visitor = ?
		AND embed_token_id IS NOT NULL ORDER BY id`
)

// DeleteStaleVisitorConversations deletes up to limit widget conversations, of any account,
// that have had neither a message nor a visit since before.
func (s *Store) DeleteStaleVisitorConversations(ctx context.Context, before time.Time, limit int) (store.VisitorDeletion, error) {
	if limit <= 0 {
		return store.VisitorDeletion{}, fmt.Errorf("delete stale visitor conversations: limit %d", limit)
	}
	var out store.VisitorDeletion
	err := s.InTx(ctx, func(tx *Tx) error {
		ids, err := queryIDs(ctx, tx, StaleConversationsQuery, TS(before), TS(before), limit)
		if err != nil {
			return fmt.Errorf("stale visitor conversations: %w", err)
		}
		out, err = deleteConversations(ctx, tx, ids)
		return err
	})
	if err != nil {
		return store.VisitorDeletion{}, err
	}
	return out, nil
}

// DeleteVisitor deletes every conversation of the visitor in the account.
func (s *Store) DeleteVisitor(ctx context.Context, accountID int64, visitor string) (store.VisitorDeletion, error) {
	var out store.VisitorDeletion
	err := s.InTx(ctx, func(tx *Tx) error {
		ids, err := queryIDs(ctx, tx, VisitorConversationsQuery, accountID, visitor)
		if err != nil {
			return fmt.Errorf("visitor conversations: %w", err)
		}
		if len(ids) == 0 {
			return fmt.Errorf("visitor %s: %w", visitor, store.ErrNotFound)
		}
		out, err = deleteConversations(ctx, tx, ids)
		return err
	})
	if err != nil {
		return store.VisitorDeletion{}, err
	}
	return out, nil
}

// deleteConversations deletes the conversations ids and what belongs only to them, children
// before parents (foreign keys are on).
func deleteConversations(ctx context.Context, tx *Tx, ids []int64) (store.VisitorDeletion, error) {
	var out store.VisitorDeletion
	if len(ids) == 0 {
		return out, nil
	}
	in := Placeholders(len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	msgs := `SELECT id FROM messages WHERE conversation_id IN (` + in + `)`
	steps := []struct {
		what, query string
		count       *int
	}{
		{"feedback", `DELETE FROM feedback WHERE message_id IN (` + msgs + `)`, &out.Feedback},
		{"review items", `DELETE FROM fallback_questions WHERE message_id IN (` + msgs + `)`, &out.ReviewItems},
		// answer_cache_terms and answer_cache_docs go with their entries (ON DELETE CASCADE).
		{"cached answers", `DELETE FROM answer_cache WHERE message_id IN (` + msgs + `)`, &out.CacheEntries},
		{"messages", `DELETE FROM messages WHERE conversation_id IN (` + in + `)`, &out.Messages},
		{"conversations", `DELETE FROM conversations WHERE id IN (` + in + `)`, &out.Conversations},
	}
	for _, st := range steps {
		n, err := ExecCount(ctx, tx, st.query, args...)
		if err != nil {
			return store.VisitorDeletion{}, fmt.Errorf("delete %s: %w", st.what, err)
		}
		*st.count = n
	}
	return out, nil
}

// VisitorData reads everything the account stores about a visitor, in one read transaction
// so that the conversations, messages and feedback agree.
func (s *Store) VisitorData(ctx context.Context, accountID int64, visitor string) (store.VisitorData, error) {
	out := store.VisitorData{AccountID: accountID, Visitor: visitor}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return out, fmt.Errorf("visitor data: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+conversationColumns+`, COALESCE(t.label, ''), c.last_message_at,
		c.last_seen_at FROM conversations c LEFT JOIN embed_tokens t ON t.id = c.embed_token_id
		WHERE c.account_id = ? AND c.visitor = ? AND c.embed_token_id IS NOT NULL ORDER BY c.id`, accountID, visitor)
	if err != nil {
		return out, fmt.Errorf("visitor data: %w", err)
	}
	for rows.Next() {
		var vc store.VisitorConversation
		var last, seen string
		if err := scanConversation(rows, &vc.Conversation, &vc.TokenLabel, &last, &seen); err != nil {
			rows.Close()
			return out, fmt.Errorf("visitor data: %w", err)
		}
		vc.LastMessageAt, vc.LastSeenAt = ParseTS(last), ParseTS(seen)
		out.Conversations = append(out.Conversations, vc)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return out, fmt.Errorf("visitor data: %w", err)
	}
	if len(out.Conversations) == 0 {
		return out, fmt.Errorf("visitor %s: %w", visitor, store.ErrNotFound)
	}
	for i := range out.Conversations {
		vc := &out.Conversations[i]
		mrows, err := tx.QueryContext(ctx, `SELECT `+MessageColumns+` FROM messages
			WHERE account_id = ? AND conversation_id = ? ORDER BY id`, accountID, vc.ID)
		if err != nil {
			return out, fmt.Errorf("visitor messages: %w", err)
		}
		if vc.Messages, err = ScanMessages(mrows); err != nil {
			return out, fmt.Errorf("visitor messages: %w", err)
		}
		if vc.Feedback, err = conversationFeedback(ctx, tx, accountID, vc.ID); err != nil {
			return out, err
		}
	}
	return out, nil
}

// conversationFeedback reads the ratings of a conversation's replies, oldest first.
func conversationFeedback(ctx context.Context, tx *Tx, accountID, conversationID int64) ([]store.Feedback, error) {
	rows, err := tx.QueryContext(ctx, `SELECT f.id, f.message_id, f.rating, f.comment, f.created_at
		FROM feedback f JOIN messages m ON m.id = f.message_id
		WHERE f.account_id = ? AND m.conversation_id = ? ORDER BY f.id`, accountID, conversationID)
	if err != nil {
		return nil, fmt.Errorf("visitor feedback: %w", err)
	}
	defer rows.Close()
	out := []store.Feedback{}
	for rows.Next() {
		f := store.Feedback{AccountID: accountID, ConversationID: conversationID}
		var created string
		if err := rows.Scan(&f.ID, &f.MessageID, &f.Rating, &f.Comment, &created); err != nil {
			return nil, fmt.Errorf("visitor feedback: %w", err)
		}
		f.CreatedAt = ParseTS(created)
		out = append(out, f)
	}
	return out, rows.Err()
}

// queryIDs runs a query of one integer column.
func queryIDs(ctx context.Context, tx *Tx, query string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// ExecCount runs a statement and reports how many rows it touched.
func ExecCount(ctx context.Context, tx *Tx, query string, args ...any) (int, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

package sqlstore

import (
	"context"
	"fmt"
	"math"
	"slices"

	"svc/internal/store"
)

// previewLen is how many characters of a conversation's newest question the list shows.
const previewLen = 160

// ListConversations reads a page in two steps: the page's ids from the (account_id,
// last_message_at, id) index, walked newest first and stopped at the limit, then the
// per-conversation counts for those rows only, each an index walk of one conversation's
// messages. The filters that need other tables are a set built once (rating) or a probe of
// one conversation (fallback).
func (s *Store) ListConversations(ctx context.Context, accountID int64, f store.ConversationFilter) ([]store.ConversationRow, error) {
	query, args, err := ConversationPage(accountID, f)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	defer rows.Close()
	out := []store.ConversationRow{}
	for rows.Next() {
		var r store.ConversationRow
		var last string
		if err := scanConversation(rows, &r.Conversation, &last, &r.TokenLabel, &r.Messages, &r.Preview, &r.Fallbacks,
			&r.Helpful, &r.NotHelpful, &r.CostMicro); err != nil {
			return nil, fmt.Errorf("list conversations: %w", err)
		}
		r.LastMessageAt, r.Preview = ParseTS(last), ClipWords(r.Preview, previewLen)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	return out, nil
}

// ConversationPage is ListConversations' query.
func ConversationPage(accountID int64, f store.ConversationFilter) (string, []any, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	where, args := `c.account_id = ? AND c.last_message_at > ''`, []any{accountID}
	switch f.Channel {
	case "":
	case store.ChannelAPI:
		where += ` AND c.embed_token_id IS NULL`
	case store.ChannelWidget:
		where += ` AND c.embed_token_id IS NOT NULL`
	default:
		return "", nil, fmt.Errorf("unknown channel %q", f.Channel)
	}
	if f.EmbedTokenID > 0 {
		where += ` AND c.embed_token_id = ?`
		args = append(args, f.EmbedTokenID)
	}
	if f.Lang != "" {
		where += ` AND c.lang = ?`
		args = append(args, f.Lang)
	}
	if !f.Since.IsZero() {
		where += ` AND c.last_message_at >= ?`
		args = append(args, TS(f.Since))
	}
	if !f.Until.IsZero() {
		where += ` AND c.last_message_at < ?`
		args = append(args, TS(f.Until))
	}
	if !f.BeforeAt.IsZero() {
		// The first bound alone is a range on the index; the second drops the ties at BeforeAt
		// already shown.
		where += ` AND c.last_message_at <= ? AND (c.last_message_at < ? OR c.id < ?)`
		args = append(args, TS(f.BeforeAt), TS(f.BeforeAt), f.BeforeID)
	}
	switch f.Rating {
	case "":
	case store.RatingHelpful, store.RatingNotHelpful:
		where += ` AND c.id IN (SELECT m.conversation_id FROM feedback r JOIN messages m ON m.id = r.message_id
			WHERE r.account_id = ? AND r.rating = ?)`
		args = append(args, accountID, f.Rating)
	default:
		return "", nil, fmt.Errorf("unknown rating %q", f.Rating)
	}
	if f.HadFallback {
		where += ` AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.source = 'fallback'
			AND m.role = 'assistant')`
	}
	return `SELECT ` + conversationColumns + `, c.last_message_at, COALESCE(t.label, ''),
		(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id),
		COALESCE((SELECT m.body FROM messages m WHERE m.conversation_id = c.id AND m.role = 'user'
			ORDER BY m.id DESC LIMIT 1), ''),
		(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id AND m.source = 'fallback' AND m.role = 'assistant'),
		(SELECT COUNT(*) FROM messages m JOIN feedback r ON r.message_id = m.id
			WHERE m.conversation_id = c.id AND r.rating = 'helpful'),
		(SELECT COUNT(*) FROM messages m JOIN feedback r ON r.message_id = m.id
			WHERE m.conversation_id = c.id AND r.rating = 'not_helpful'),
		(SELECT COALESCE(SUM(u.cost_micro), 0) FROM messages m JOIN usage_events u ON u.message_id = m.id
			WHERE m.conversation_id = c.id)
		FROM (SELECT c.id FROM conversations c WHERE ` + where + `
			ORDER BY c.last_message_at DESC, c.id DESC LIMIT ?) AS page
		JOIN conversations c ON c.id = page.id
		LEFT JOIN embed_tokens t ON t.id = c.embed_token_id AND t.account_id = c.account_id
		ORDER BY c.last_message_at DESC, c.id DESC`, append(args, limit), nil
}

// TranscriptQuery reads a page of a conversation's messages with their usage and rating. The
// events and the rating are found by the message alone, which is the account's: also naming
// the account made SQLite walk the account's events for every message.
const TranscriptQuery = `SELECT ` + MessageColumns + `,
	COALESCE((SELECT u.event_type FROM usage_events u WHERE u.message_id = m.id ORDER BY u.id LIMIT 1), ''),
	(SELECT COALESCE(SUM(u.cost_micro), 0) FROM usage_events u WHERE u.message_id = m.id),
	COALESCE((SELECT r.rating FROM feedback r WHERE r.message_id = m.id), ''),
	COALESCE((SELECT r.comment FROM feedback r WHERE r.message_id = m.id), '')
	FROM messages m WHERE m.account_id = ? AND m.conversation_id = ? AND m.id < ? ORDER BY m.id DESC LIMIT ?`

// GetConversation reads one of the account's conversations.
func (s *Store) GetConversation(ctx context.Context, accountID, conversationID int64) (store.Conversation, error) {
	var c store.Conversation
	err := scanConversation(s.r.QueryRowContext(ctx, `SELECT `+conversationColumns+` FROM conversations c
		WHERE c.id = ? AND c.account_id = ?`, conversationID, accountID), &c)
	if err != nil {
		return store.Conversation{}, NotFound(err, "get conversation")
	}
	return c, nil
}

// Transcript reads a page of a conversation's messages, newest limit before beforeID, with
// each reply's usage and rating. A reply's EventType is its turn's first event (the charge,
// recorded before any extra such as the context summary) and its CostMicro all its events
// together, so that a transcript's costs add up to the conversation's.
func (s *Store) Transcript(ctx context.Context, accountID, conversationID, beforeID int64, limit int) ([]store.TranscriptMessage, error) {
	if limit <= 0 {
		limit = 50
	}
	if beforeID <= 0 {
		beforeID = math.MaxInt64
	}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM conversations WHERE id = ? AND account_id = ?`,
		conversationID, accountID).Scan(&id); err != nil {
		return nil, NotFound(err, "transcript")
	}
	rows, err := tx.QueryContext(ctx, TranscriptQuery, accountID, conversationID, beforeID, limit)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	defer rows.Close()
	out := []store.TranscriptMessage{}
	for rows.Next() {
		var tm store.TranscriptMessage
		if err := scanMessage(rows, &tm.Message, &tm.EventType, &tm.CostMicro, &tm.Rating, &tm.Comment); err != nil {
			return nil, fmt.Errorf("transcript: %w", err)
		}
		out = append(out, tm)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// AskedQuestionsQuery reads the window's newest replies other than small talk from the
// replies' partial index (messages_account_replies, walked backwards from the newest), then
// for each its question (the conversation's user message just before it, one probe of
// messages_conversation), the reply's rating (feedback's unique message_id) and the
// question's review item (fallback_questions' key): the LIMIT bounds every part of it.
const AskedQuestionsQuery = `SELECT q.id, r.id, q.body, q.lang, r.source, COALESCE(f.rating, ''),
		COALESCE(fq.status, ''), r.created_at
	FROM (SELECT id, conversation_id, source, created_at FROM messages
		WHERE account_id = ? AND role = 'assistant' AND created_at >= ? AND source <> 'cache_shared'
		ORDER BY created_at DESC LIMIT ?) AS r
	JOIN messages q ON q.id = (SELECT p.id FROM messages p WHERE p.conversation_id = r.conversation_id
		AND p.id < r.id AND p.role = 'user' ORDER BY p.id DESC LIMIT 1)
	LEFT JOIN feedback f ON f.message_id = r.id
	LEFT JOIN fallback_questions fq ON fq.message_id = q.id
	ORDER BY r.created_at DESC, r.id DESC`

// AskedQuestions returns the account's questions of the window, newest first (see
// store.Dashboard).
func (s *Store) AskedQuestions(ctx context.Context, accountID int64, since time.Time, limit int) ([]store.AskedQuestion, error) {
	if limit <= 0 {
		return []store.AskedQuestion{}, nil
	}
	rows, err := s.r.QueryContext(ctx, AskedQuestionsQuery, accountID, TS(since), limit)
	if err != nil {
		return nil, fmt.Errorf("asked questions: %w", err)
	}
	defer rows.Close()
	out := []store.AskedQuestion{}
	for rows.Next() {
		var q store.AskedQuestion
		var at string
		if err := rows.Scan(&q.MessageID, &q.ReplyID, &q.Question, &q.Lang, &q.Source, &q.Rating, &q.Review, &at); err != nil {
			return nil, fmt.Errorf("asked questions: %w", err)
		}
		q.AskedAt = ParseTS(at)
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("asked questions: %w", err)
	}
	return out, nil
}

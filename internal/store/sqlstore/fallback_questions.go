package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex"
)

// States of a fallback question (fallback_questions.status).
const (
	FallbackOpen      = "open"
	FallbackDismissed = "dismissed"
	FallbackResolved  = "resolved"
)

// FeedbackDismissed is feedback.resolved for a not_helpful rating closed without an answer;
// ResolveReview writes 1 and ReviewList reads anything but 0 as resolved.
const FeedbackDismissed = 2

// QuestionKey is what two fallback questions must share to be the same question: the text
// trimmed, its inner spaces collapsed and case-folded as the index folds it (Turkish İ and ı
// included, which neither strings.ToLower nor SQL lower() gets right).
func QuestionKey(text string) string {
	return textindex.Fold(strings.Join(strings.Fields(text), " "))
}

// RecordFallback makes the question of a turn answered by a fallback an open review item, in
// the turn's transaction. The messages have their ids by now.
func RecordFallback(ctx context.Context, tx *Tx, t *store.Turn) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO fallback_questions (message_id, account_id, conversation_id, reply_id,
		question_key, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, t.User.ID, t.AccountID, t.ConversationID,
		t.Reply.ID, QuestionKey(t.User.Body), FallbackOpen, TS(t.User.CreatedAt)); err != nil {
		return fmt.Errorf("record fallback question: %w", err)
	}
	return nil
}
